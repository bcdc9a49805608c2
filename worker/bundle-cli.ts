import path from 'node:path';

import { writeWorkflowBundle } from './workflow-bundle';

/** `npm run build`: writes the workflow bundle the compiled worker loads (dist/workflow-bundle.js). */
const output = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
writeWorkflowBundle(output).then(
  () => process.stdout.write(`workflow bundle written to ${output}\n`),
  (err: unknown) => {
    process.stderr.write(`bundling the workflows failed: ${String(err)}\n`);
    process.exit(1);
  },
);
