/**
 * Builds a container tool's image on request (the app's Build button, POST …/build), with its log
 * streamed as it comes: `build.log` store events, batched every 100 ms, tagged with the buildID
 * the caller chose (so it can subscribe before it asks), then one `build.finished`. The store's
 * event channel already reaches every window (IPC) and every browser tab (GET /tools/events), so
 * a build started in one place shows its progress everywhere. The answer comes when the build
 * ends: a build that ran and failed is `ok: false` with the failing step and the log's tail.
 */
import { randomUUID } from 'node:crypto';
import type { StoreEvent } from '../../../shared/operations.js';
import type { BuildResult, BuildStep, ToolImage } from '../../../shared/types.js';
import { isCoreError } from '../errors.js';
import type { ContainerRunner } from '../tool-types/container/runner.js';
import type { ToolRecord } from '../store/loader.js';
import { typesWith } from '../tool-types/registry.js';
import type { ToolType } from '../../../shared/tool-types/catalog.js';
import type { Store } from '../store/store.js';
import type { ToolRef } from '../store/tools.js';
import { invalid } from '../errors.js';

const FLUSH_MS = 100;
/** Lines streamed per build; a build that prints without end keeps running, its log does not. */
const MAX_STREAMED_LINES = 5000;
const MAX_LINE_CHARS = 2000;

/** What the runner of a type with build files (ToolTypeModule.buildFiles) does with its image. */
export type ImageBuilder = Pick<ContainerRunner, 'build' | 'describeImage'>;

export class BuildService {
  constructor(
    private readonly store: Store,
    /** The image builder of a type, undefined for a type without build files. */
    private readonly builderOf: (type: ToolType) => ImageBuilder | undefined,
    private readonly emit: (e: StoreEvent) => void,
  ) {}

  private async imageTool(ref: ToolRef): Promise<{ rec: ToolRecord; builder: ImageBuilder }> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    const builder = this.builderOf(rec.file.type);
    if (!builder) {
      const only = typesWith((m) => m.buildFiles).join(' and ');
      throw invalid([{ field: 'type', message: `'${rec.file.slug}' is a ${rec.file.type} tool; only ${only} tools have an image` }]);
    }
    return { rec, builder };
  }

  async build(ref: ToolRef, options: { buildID?: string; noCache?: boolean } = {}): Promise<BuildResult> {
    const { rec, builder } = await this.imageTool(ref);
    const buildID = options.buildID ?? randomUUID();
    const { bundleID, toolID } = rec.file;
    const started = performance.now();
    let pending: string[] = [];
    let streamed = 0;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (pending.length) this.emit({ type: 'build.log', bundleID, toolID, buildID, lines: pending });
      pending = [];
    };
    const onLine = (line: string) => {
      if (streamed > MAX_STREAMED_LINES) return;
      streamed++;
      pending.push(
        streamed > MAX_STREAMED_LINES ? `… the log goes on; only its first ${MAX_STREAMED_LINES} lines are shown here` : line.slice(0, MAX_LINE_CHARS),
      );
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    const finish = (result: BuildResult): BuildResult => {
      flush();
      this.emit({ type: 'build.finished', bundleID, toolID, buildID, ok: result.ok });
      return result;
    };
    try {
      const image = await builder.build(rec.file, rec.dir, { ...(options.noCache ? { noCache: true } : {}), onLine });
      return finish({ buildID, ok: true, image: { ...image.info, built: image.built }, durationMs: performance.now() - started });
    } catch (error) {
      const details = isCoreError(error) ? error.details : undefined;
      // The build ran and failed (its log says why): an answer, not a refusal.
      if (isCoreError(error) && typeof details?.['buildLog'] === 'string') {
        const step = details['step'] as BuildStep | undefined;
        return finish({
          buildID,
          ok: false,
          error: {
            message: error.message,
            reason: typeof details['reason'] === 'string' ? details['reason'] : error.message,
            logTail: details['buildLog'],
            ...(step ? { step } : {}),
          },
          durationMs: performance.now() - started,
        });
      }
      flush();
      this.emit({ type: 'build.finished', bundleID, toolID, buildID, ok: false });
      throw error;
    }
  }

  async image(ref: ToolRef): Promise<ToolImage> {
    const { rec, builder } = await this.imageTool(ref);
    return builder.describeImage(rec.file, rec.dir);
  }
}
