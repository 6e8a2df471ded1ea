/** bin/toolwright.js without tsx, for tests that start the CLI many times (see compiled-scripts.ts). */
import { main } from '../../electron/cli/main.js';

const code = await main(process.argv.slice(2));
process.exit(code);
