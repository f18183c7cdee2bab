// The quota model of spec section D and its Limits: pure, shared by the CLI, the server and the extension.
export * from './capacity';
export * from './simulate';
export * from './usage';
export * from './plan';
export * from './figures';
export * from './reconcile';
export * from './apply';
export * from './where';
