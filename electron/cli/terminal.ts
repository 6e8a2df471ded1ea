/** What the CLI reads from its user: piped stdin, or a line typed at the terminal. */
import { createInterface } from 'node:readline';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A line typed at the terminal; hidden (no echo) for secrets. */
export async function prompt(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (hidden) {
    const out = rl as unknown as { _writeToOutput: (s: string) => void };
    out._writeToOutput = (s: string) => {
      if (s.includes(question)) process.stderr.write(question);
    };
  }
  try {
    return await new Promise<string>((resolveAnswer) => rl.question(question, resolveAnswer));
  } finally {
    if (hidden) process.stderr.write('\n');
    rl.close();
  }
}
