import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The command line of an artifact generator (P153): writes the text `make` builds to the path
 * given as the first argument (default `defaultFile`), says where, and exits 1 on a failure.
 */
export function writeArtifact(defaultFile: string, make: () => Promise<string>): void {
  make()
    .then((text) => {
      const target = resolve(process.argv[2] ?? defaultFile);
      writeFileSync(target, text);
      process.stdout.write(`wrote ${target} (${text.split('\n').length} lines)\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
