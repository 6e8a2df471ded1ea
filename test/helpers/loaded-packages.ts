/** Which packages a process imports: a Node option that reports each on stderr, and their names read back. */
import { spawn } from 'node:child_process';

// Node's in-thread module hooks, given as a data: URL to --import.
const REPORT_PACKAGES = `data:text/javascript,${encodeURIComponent(
  `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (!/^(node:|[./]|file:|data:)/.test(specifier)) process.stderr.write('package ' + specifier + '\\n');
  return next(specifier, context);
} });`,
)}`;

/** Runs node with these arguments to its end: exit code, output, and every package it imported. */
export function runReportingPackages(nodeArgs: string[]): Promise<{ code: number; stdout: string; stderr: string; packages: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REPORT_PACKAGES, ...nodeArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const packages = [...stderr.matchAll(/^package (\S+)$/gm)].map((m) => m[1]!);
      resolve({ code: code ?? -1, stdout, stderr, packages });
    });
  });
}
