/** core.uuid: random (v4) or time-ordered (v7) UUIDs, via the `uuid` package (RFC 9562, monotonic v7 within a process). */
import { v4 as uuidV4, v7 as uuidV7 } from 'uuid';
import { defineFunction } from './types.js';
import { preBlock } from './html.js';

export const MAX_UUID_COUNT = 100;

interface UuidArgs {
  version?: 4 | 7;
  count?: number;
}

export const uuidFunction = defineFunction<UuidArgs, { version: 4 | 7; uuids: string[] }>({
  name: 'core.uuid',
  description: 'Generate UUIDs: version 4 (random) or version 7 (time-ordered, sortable by creation time).',
  argSchema: {
    type: 'object',
    properties: {
      version: { type: 'integer', enum: [4, 7], default: 4, description: 'UUID version: 4 = random, 7 = time-ordered.' },
      count: { type: 'integer', minimum: 1, maximum: MAX_UUID_COUNT, default: 1, description: `How many UUIDs to generate (1 to ${MAX_UUID_COUNT}).` },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      version: { type: 'integer', enum: [4, 7], description: 'The version generated.' },
      uuids: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_UUID_COUNT,
        items: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' },
        description: 'Lower-case UUIDs; v7 ones are in ascending order.',
      },
    },
    required: ['version', 'uuids'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  run({ version = 4, count = 1 }) {
    const make = version === 7 ? uuidV7 : uuidV4;
    const uuids = Array.from({ length: count }, () => make());
    return { value: { version, uuids }, card: { title: `UUID v${version}`, html: preBlock(uuids.join('\n')), text: uuids.join('\n') } };
  },
});
