/**
 * One team host as `npm run serve` starts it (startServe, the same flags), with its scheduler on
 * a fast clock shared with its siblings through the anchors, printing one JSON line per role
 * change and per fire it ran beside the host's own lines, for the several-hosts tests.
 *
 *   team-host.ts <speed> <realAnchor> <fakeAnchor> --data-dir DIR --port N --public-url URL
 *                --behind-proxy ADDR --token-file FILE
 *
 * Started through tsx, not compiled with the other spawned scripts: bundled, serve.ts (an entry
 * there itself) would take the bundle's URL as its own and run its command line too.
 */
import { parseArgs } from 'node:util';
import { startServe } from '../../electron/host/serve.js';
import { fastClock, reportingScheduler } from './schedules.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: Object.fromEntries(['data-dir', 'port', 'public-url', 'behind-proxy', 'token-file'].map((f) => [f, { type: 'string' as const }])),
});
const [speed, realAnchor, fakeAnchor] = positionals.map(Number);

startServe({
  dataDir: values['data-dir']!,
  port: Number(values['port']),
  publicUrl: values['public-url'],
  behindProxy: values['behind-proxy'],
  tokenFile: values['token-file'],
  scheduler: {
    clock: fastClock(speed!, realAnchor, fakeAnchor),
    renewMs: 1000,
    standbyPollMs: 500,
    ...reportingScheduler,
  },
}).catch((e: unknown) => {
  process.stderr.write(`team-host: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
