/** Suite titles the runners read results by (this module loads outside VS Code too). */

/** The checks that need the language server's completion and quick fixes. */
export const SERVER_FEATURES_SUITE = 'Server features: strongType completion and the declare-group quick fix';
