/** A container tool's build files, its images and its builds, as the REST contract answers them. */

/** One file beside a container tool's tool.json (GET …/files). */
export interface BuildFileEntry {
  /** Relative, '/'-separated. */
  path: string;
  size: number;
  executable: boolean;
}

/** The build files of a container tool's folder, and the caps a write must stay under. */
export interface BuildFileList {
  items: BuildFileEntry[];
  /** Entries that are not regular files (links, devices): listed, never read or followed. */
  skipped: { path: string; reason: string }[];
  totalBytes: number;
  limits: { maxFileBytes: number; maxFolderBytes: number; maxEntries: number; maxDepth: number };
}

/** One build file's content: text as utf8, anything else (invalid UTF-8, NUL bytes) as base64. */
export interface BuildFileContent extends BuildFileEntry {
  encoding: 'utf8' | 'base64';
  content: string;
  /** sha256 hex of the bytes; send it back as `ifSha256` so a change made elsewhere is not overwritten. */
  sha256: string;
}

/** A Docker image of a container tool (GET …/image). */
export interface ImageInfo {
  ref: string;
  id: string;
  sizeBytes: number;
  createdAt: string;
}

/** The image a container tool runs: the one its files build to now, and the one built (if any). */
export interface ToolImage {
  source: 'build' | 'image';
  /** The tag the current files build to (build tools), or impl.image. */
  ref: string;
  /** The newest image present for this tool (build tools: any earlier build; image tools: impl.image itself). */
  image: ImageInfo | null;
  /** True when `image` is exactly `ref`: a run starts without building. */
  upToDate: boolean;
}

/** The build step that failed: `Step 2/4 : RUN make` as Docker's log names it, or the Dockerfile line a parse error names. */
export interface BuildStep {
  index?: number;
  total?: number;
  instruction?: string;
  line?: number;
}

/** What tools.build answers. A build that ran and failed is `ok: false` (HTTP 200), like a tool run. */
export interface BuildResult {
  buildID: string;
  ok: boolean;
  /** The image when ok; `built: false` when one built from the same files was there already. */
  image?: ImageInfo & { built: boolean };
  /** `message` says it all in one sentence; `reason` is Docker's own words, `logTail` the last lines of the log. */
  error?: { message: string; reason: string; step?: BuildStep; logTail: string };
  durationMs: number;
}
