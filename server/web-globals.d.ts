// For tsconfig.web.json only: the service's `require` of JSON schemas and generated validators, which
// esbuild resolves when it bundles. Nothing else of Node is declared for the browser's type check.
declare function require(id: string): unknown;
