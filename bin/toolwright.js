#!/usr/bin/env node
// The `toolwright` command (package.json "bin"). The sources are TypeScript; tsx compiles them
// on load, as `npm run serve` does, so a checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/cli/main.ts');
const code = await main(process.argv.slice(2));
// `serve` and `mcp` keep running until a signal or the end of stdin; every other command ends here.
process.exit(code);
