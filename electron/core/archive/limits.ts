/**
 * Caps on what an import may hold. An archive that passes them still gets every file validated;
 * these only stop archives built to exhaust memory, disk or time (zip bombs, entry floods).
 */
export interface TransferLimits {
  /** Size of the ZIP itself. */
  maxArchiveBytes: number;
  maxEntries: number;
  /** Sum of the uncompressed sizes of all entries. */
  maxTotalBytes: number;
  /** One bundle.json or tool.json. */
  maxJsonBytes: number;
  /** One build file beside a tool.json. */
  maxFileBytes: number;
  /** All build files of one tool (the same cap the container build context has). */
  maxToolFolderBytes: number;
  maxToolFolderEntries: number;
  /** Folders below a tool folder. */
  maxDepth: number;
  /** Uncompressed ÷ compressed above which an entry counts as a zip bomb... */
  maxRatio: number;
  /** ...once it is larger than this (small, repetitive JSON compresses well and is harmless). */
  ratioFloorBytes: number;
  /** Foreign documents (SKILL.md, OpenAPI). */
  maxDocumentBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: TransferLimits = {
  maxArchiveBytes: 256 * MiB,
  maxEntries: 50_000,
  maxTotalBytes: 512 * MiB,
  maxJsonBytes: 4 * MiB,
  maxFileBytes: 64 * MiB,
  maxToolFolderBytes: 64 * MiB,
  maxToolFolderEntries: 5_000,
  maxDepth: 32,
  maxRatio: 100,
  ratioFloorBytes: 1 * MiB,
  maxDocumentBytes: 16 * MiB,
};
