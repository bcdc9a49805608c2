// Every workflow the worker runs is exported here; the worker bundles this file.
export { pingWorkflow } from './ping';
