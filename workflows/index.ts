// Every workflow the worker runs is exported here; the worker bundles this file.
export { cleanupRateWindowsWorkflow } from './maintenance';
