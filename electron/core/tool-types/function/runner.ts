/**
 * The runner for tools of type "function": looks the named function up, validates the call's
 * arguments against the function's own argSchema (a user may write a tool around core.calc
 * with a looser schema of their own), runs it and hands back its value and card.
 */
import { CoreError, cancelledError, isCoreError } from '../../errors.js';
import type { Runner, RunContext, RunOutput } from '../../invoke/types.js';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Config, type ToolFile } from '../../../../shared/schemas.js';
import type { Availability } from '../../../../shared/types.js';
import type { FunctionRegistry } from '../../functions/registry.js';
import { createFunctionServices, type FunctionServiceOptions } from './services.js';
import type { SecretsReader } from '../../secrets/types.js';

function functionNameOf(tool: ToolFile): string | undefined {
  const name = (tool.impl as { function?: unknown } | undefined)?.function;
  return typeof name === 'string' && name.length > 0 ? name : undefined;
}

export function createFunctionRunner(registry: FunctionRegistry, config?: () => Config, serviceOptions: FunctionServiceOptions = {}): Runner {
  const services = createFunctionServices(serviceOptions);
  return {
    type: 'function',

    // In-process, a function has no bound of its own: config's default holds it.
    defaultTimeout: (current: Config) => ({
      seconds: current.limits.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS,
      source: 'the default timeout of function tools, config limits.timeoutSeconds',
    }),

    availability(tool: ToolFile, _toolDir: string, secrets: SecretsReader): Availability {
      const name = functionNameOf(tool);
      if (!name) return { ok: false, reason: 'impl.function is missing: name a registered function such as core.calc' };
      if (!registry.has(name)) return { ok: false, reason: `function ${name} is not registered` };
      return (config && registry.get(name)?.availability?.(config(), services, secrets)) ?? { ok: true };
    },

    close: () => services.close(),

    async run(ctx: RunContext): Promise<RunOutput> {
      const name = functionNameOf(ctx.tool);
      if (!name) throw new CoreError('TOOL_UNAVAILABLE', 'impl.function is missing: name a registered function such as core.calc');
      const def = registry.get(name);
      if (!def) throw new CoreError('TOOL_UNAVAILABLE', `function ${name} is not registered`, { function: name });
      if (ctx.signal.aborted) throw cancelledError();

      const issues = registry.checkArgs(name, ctx.args);
      if (issues.length > 0) {
        const summary = issues.map((i) => `${i.field ? `${i.field}: ` : ''}${i.message}`).join('; ');
        throw new CoreError('INVALID_ARGS', `invalid arguments for ${name}: ${summary}`, { issues });
      }

      let result;
      try {
        result = await def.run(ctx.args, { ...ctx, services });
      } catch (e) {
        if (ctx.signal.aborted && !isCoreError(e)) throw cancelledError();
        if (isCoreError(e)) throw e;
        throw new CoreError('INTERNAL', `function ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (ctx.signal.aborted) throw cancelledError();
      const out: RunOutput = { value: result.value };
      if (result.card) out.card = result.card;
      return out;
    },
  };
}
