/**
 * Which image a container tool runs: `impl.image` as named, or the tool folder built into
 * `toolwright/tool-<toolID>:<hash>` (rebuilt only when the build files change). Inspections are
 * cached so a warm invocation costs no extra round trip to the engine.
 */
import type Dockerode from 'dockerode';
import type { ContainerImpl, ToolFile } from '../../../../shared/schemas.js';
import type { BuildStep, ImageInfo, ToolImage } from '../../../../shared/types.js';
import { CoreError } from '../../errors.js';
import { contextTar, hasDockerfile, readBuildContext, type BuildContext } from './build-context.js';
import { LABEL_BUILD_HASH, LABEL_MANAGED, LABEL_TOOL } from './labels.js';

export interface ResolvedImage {
  ref: string;
  /** The image's own USER ('' when it declares none). */
  user: string;
  /** True when this call built it. */
  built: boolean;
}

/** Named images may be re-tagged behind our back; check them again after this long. */
const NAMED_IMAGE_TTL_MS = 30_000;
const BUILD_LOG_TAIL_LINES = 30;

export function builtImageTag(toolID: string, contextHash: string): string {
  return `toolwright/tool-${toolID.toLowerCase()}:${contextHash.slice(0, 20)}`;
}

export class ImageProvider {
  private readonly inspected = new Map<string, { user: string; at: number }>();
  private readonly missing = new Map<string, string>();
  /** Builds under way, by tag; each line of a build's log goes to every listener of it (a run and the Build button may share one). */
  private readonly builds = new Map<string, { done: Promise<ResolvedImage>; listeners: Set<(line: string) => void> }>();

  constructor(
    private readonly docker: Dockerode,
    private readonly buildTimeoutMs: number,
  ) {}

  /** A known reason why this impl.image cannot run, from earlier attempts (never probes). */
  knownProblem(impl: ContainerImpl): string | undefined {
    return impl.image ? this.missing.get(impl.image) : undefined;
  }

  /** Whether a named image was found present (true), missing (false), or not looked at yet. */
  namedStatus(ref: string): boolean | undefined {
    return this.missing.has(ref) ? false : this.inspected.has(ref) ? true : undefined;
  }

  forget(ref: string): void {
    this.inspected.delete(ref);
  }

  async resolve(tool: ToolFile, toolDir: string, onProgress?: (line: string) => void): Promise<ResolvedImage> {
    const impl = tool.impl as ContainerImpl;
    if (impl.image) return this.resolveNamed(impl.image);
    return this.resolveBuilt(tool.toolID, toolDir, onProgress);
  }

  /** A named image (pulled or loaded by the person), inspected; TOOL_UNAVAILABLE saying how to get it when absent. */
  async resolveNamed(ref: string): Promise<ResolvedImage> {
    const cached = this.inspected.get(ref);
    if (cached && Date.now() - cached.at < NAMED_IMAGE_TTL_MS) return { ref, user: cached.user, built: false };
    const user = await this.inspectUser(ref);
    if (user === null) {
      const reason = `Image "${ref}" is not present on the Docker engine; pull or load it there (docker pull ${ref}) and try again.`;
      this.missing.set(ref, reason);
      throw new CoreError('TOOL_UNAVAILABLE', reason);
    }
    this.missing.delete(ref);
    this.inspected.set(ref, { user, at: Date.now() });
    return { ref, user, built: false };
  }

  private async resolveBuilt(toolID: string, toolDir: string, onProgress?: (line: string) => void): Promise<ResolvedImage> {
    const context = await readBuildContext(toolDir);
    if (!hasDockerfile(context)) {
      throw new CoreError('TOOL_UNAVAILABLE', `The tool folder has no Dockerfile; add one next to tool.json or set impl.image instead of impl.build.`);
    }
    const tag = builtImageTag(toolID, context.hash);
    const cached = this.inspected.get(tag);
    if (cached) return { ref: tag, user: cached.user, built: false };
    return this.shareBuild(tag, onProgress, (emit) => this.inspectOrBuild(tag, toolID, context, emit, false));
  }

  /**
   * Builds the tool folder now (the app's Build button): an image of the same files already
   * there is reused unless `noCache`, which builds again without Docker's layer cache.
   */
  async buildFolder(toolID: string, toolDir: string, options: { noCache?: boolean; onLine?: (line: string) => void } = {}): Promise<ResolvedImage> {
    const context = await readBuildContext(toolDir);
    if (!hasDockerfile(context)) {
      throw new CoreError('INVALID_INPUT', 'The tool folder has no Dockerfile; add one (a file named exactly Dockerfile, next to tool.json) and build again.');
    }
    const tag = builtImageTag(toolID, context.hash);
    return this.shareBuild(tag, options.onLine, (emit) => this.inspectOrBuild(tag, toolID, context, emit, options.noCache === true));
  }

  /** Joins the build of `tag` under way, or starts one; every listener gets every line from now on. */
  private shareBuild(
    tag: string,
    onLine: ((line: string) => void) | undefined,
    start: (emit: (line: string) => void) => Promise<ResolvedImage>,
  ): Promise<ResolvedImage> {
    const running = this.builds.get(tag);
    if (running) {
      if (onLine) {
        onLine(`Joining the build of ${tag} already under way`);
        running.listeners.add(onLine);
      }
      return running.done;
    }
    const listeners = new Set<(line: string) => void>(onLine ? [onLine] : []);
    const emit = (line: string) => {
      for (const listener of listeners) listener(line);
    };
    const done = start(emit).finally(() => this.builds.delete(tag));
    this.builds.set(tag, { done, listeners });
    return done;
  }

  /** The image a tool runs now, and whether it is there (for the app's build panel). */
  async describe(tool: ToolFile, toolDir: string): Promise<ToolImage> {
    const impl = tool.impl as ContainerImpl;
    if (impl.image) {
      const info = await this.imageInfo(impl.image);
      return { source: 'image', ref: impl.image, image: info, upToDate: info !== null };
    }
    const context = await readBuildContext(toolDir);
    const ref = builtImageTag(tool.toolID, context.hash);
    const exact = await this.imageInfo(ref);
    if (exact) return { source: 'build', ref, image: exact, upToDate: true };
    const images = await this.docker.listImages({ filters: { label: [`${LABEL_TOOL}=${tool.toolID}`] } });
    const newest = images.filter((i) => i.RepoTags?.some((t) => t !== '<none>:<none>')).sort((a, b) => b.Created - a.Created)[0];
    const image = newest
      ? {
          ref: newest.RepoTags!.find((t) => t !== '<none>:<none>')!,
          id: newest.Id,
          sizeBytes: newest.Size,
          createdAt: new Date(newest.Created * 1000).toISOString(),
        }
      : null;
    return { source: 'build', ref, image, upToDate: false };
  }

  /** Size and creation time of an image, or null when the engine does not have it. */
  async imageInfo(ref: string): Promise<ImageInfo | null> {
    try {
      const info = await this.docker.getImage(ref).inspect();
      return { ref, id: info.Id, sizeBytes: info.Size, createdAt: new Date(info.Created).toISOString() };
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
  }

  private async inspectOrBuild(
    tag: string,
    toolID: string,
    context: BuildContext,
    onProgress: (line: string) => void,
    noCache: boolean,
  ): Promise<ResolvedImage> {
    const existing = noCache ? null : await this.inspectUser(tag);
    if (existing !== null) {
      this.inspected.set(tag, { user: existing, at: Date.now() });
      onProgress(`The image ${tag} of these very files is already built; nothing to do (rebuild without the cache to build it again).`);
      return { ref: tag, user: existing, built: false };
    }
    onProgress(
      `Building image ${tag} from ${context.entries.length} entries (${Math.ceil(context.totalBytes / 1024)} KB)${noCache ? ', without the layer cache' : ''}`,
    );
    for (const note of context.skipped) onProgress(`Left out of the build context: ${note}`);
    this.inspected.delete(tag);
    await this.build(tag, toolID, context, onProgress, noCache);
    const user = await this.inspectUser(tag);
    if (user === null) throw new CoreError('TOOL_UNAVAILABLE', `The build of ${tag} finished but the image is not there; try again.`);
    this.inspected.set(tag, { user, at: Date.now() });
    void this.removeOlderBuilds(toolID, tag);
    return { ref: tag, user, built: true };
  }

  /** The image's USER, '' for none, or null when the image does not exist. */
  private async inspectUser(ref: string): Promise<string | null> {
    try {
      const info = await this.docker.getImage(ref).inspect();
      return info.Config?.User ?? '';
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
  }

  private async build(tag: string, toolID: string, context: BuildContext, onProgress: (line: string) => void, noCache = false): Promise<void> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.buildTimeoutMs);
    const tail: string[] = [];
    let step: BuildStep | undefined;
    const remember = (line: string) => {
      tail.push(line);
      if (tail.length > BUILD_LOG_TAIL_LINES) tail.shift();
      step = stepOf(line) ?? step;
      onProgress(line);
    };
    let failure: string | undefined;
    try {
      const stream = await this.docker.buildImage(contextTar(context), {
        t: tag,
        labels: { [LABEL_MANAGED]: 'true', [LABEL_TOOL]: toolID, [LABEL_BUILD_HASH]: context.hash },
        rm: true,
        forcerm: true,
        nocache: noCache,
        abortSignal: abort.signal,
      } as Dockerode.ImageBuildOptions);
      await readBuildEvents(stream, (event) => {
        if (typeof event.error === 'string') failure = event.error;
        const text =
          typeof event.stream === 'string'
            ? event.stream
            : typeof event.status === 'string'
              ? event.status
              : typeof event.error === 'string'
                ? event.error
                : '';
        for (const line of text.split('\n')) if (line.trim()) remember(line.trimEnd());
      });
    } catch (error) {
      failure = abort.signal.aborted ? `it took longer than ${Math.round(this.buildTimeoutMs / 1000)} s` : (error as Error).message;
    } finally {
      clearTimeout(timer);
    }
    if (failure !== undefined) {
      throw new CoreError(
        'TOOL_UNAVAILABLE',
        `Building the image of this tool failed${step?.instruction ? ` at step ${step.index}/${step.total} (${step.instruction})` : ''}: ${failure.trim()}. Fix the Dockerfile in the tool folder and try again.`,
        { buildLog: tail.join('\n'), reason: failure.trim(), ...(step || lineOf(failure) ? { step: { ...step, ...lineOf(failure) } } : {}) },
      );
    }
  }

  /** Older builds of the same tool only take space. Best effort: an image in use stays. */
  private async removeOlderBuilds(toolID: string, keep: string): Promise<void> {
    try {
      const images = await this.docker.listImages({ filters: { label: [`${LABEL_TOOL}=${toolID}`] } });
      for (const image of images) {
        if (image.RepoTags?.includes(keep)) continue;
        await this.docker
          .getImage(image.Id)
          .remove({ force: false })
          .catch(() => undefined);
      }
    } catch {
      // nothing to do: a stale image is harmless
    }
  }
}

/** `Step 2/4 : RUN make` — the classic builder's step header. */
function stepOf(line: string): BuildStep | undefined {
  const m = /^Step (\d+)\/(\d+) : (.+)$/.exec(line.trim());
  return m ? { index: Number(m[1]), total: Number(m[2]), instruction: m[3]!.slice(0, 300) } : undefined;
}

/** `dockerfile parse error line 3: unknown instruction: FORM` names the Dockerfile's line. */
function lineOf(message: string): { line: number } | undefined {
  const m = /\bline (\d+)\b/i.exec(message);
  return m ? { line: Number(m[1]) } : undefined;
}

interface BuildEvent {
  stream?: unknown;
  status?: unknown;
  error?: unknown;
}

/**
 * Reads the newline-delimited JSON events of a build. Unlike modem.followProgress it keeps
 * nothing but the current line, so a build that prints without end cannot fill the memory.
 */
function readBuildEvents(stream: NodeJS.ReadableStream, onEvent: (event: BuildEvent) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = '';
    const handleLine = (line: string) => {
      if (!line.trim()) return;
      try {
        onEvent(JSON.parse(line) as BuildEvent);
      } catch {
        onEvent({ stream: line });
      }
    };
    stream.on('data', (chunk: Buffer | string) => {
      pending += chunk.toString();
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        handleLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      if (pending.length > 1024 * 1024) pending = pending.slice(-64 * 1024);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      handleLine(pending);
      resolve();
    });
    stream.on('close', () => resolve());
  });
}
