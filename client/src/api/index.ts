export * from './settings';
export * from './errors';
export * from './http';
export * from './policySets';
export * from './deployment';
export * from './implicitFlow';
export * from './modelDeployments';
