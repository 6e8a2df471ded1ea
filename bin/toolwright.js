#!/usr/bin/env node
// The `toolwright` command (package.json "bin"). The sources are TypeScript; tsx compiles them
// on load, as `npm run serve` does, so a checkout needs no build step.
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// V8 keeps the compiled code of what a command loads (keyed by each file's content), so the next
// command compiles less. NODE_COMPILE_CACHE names another folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
// One folder per user: the temp folder is shared.
enableCompileCache?.(process.env['NODE_COMPILE_CACHE'] ?? join(tmpdir(), `toolwright-compile-cache-${process.getuid?.() ?? 'user'}`));
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../electron/cli/main.ts');
const code = await main(process.argv.slice(2));
// `serve` and `mcp` keep running until a signal or the end of stdin; every other command ends here.
process.exit(code);
