/** A container tool's build files, its image builds and its image. */
import { Type } from '@sinclair/typebox';
import type { BuildFileList, BuildFileContent, BuildResult, ToolImage } from '../types.js';
import { op, ToolRef } from './op.js';

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** A path inside a tool folder; the core checks it (relative, no '..', no links followed, not tool.json). */
const BuildFilePath = Type.String({ minLength: 1, maxLength: 1024 });

export const containerFilesOperations = {
  'buildFiles.list': op<BuildFileList>()({
    summary: "The files beside a container tool's tool.json (its Dockerfile, runner, …)",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'buildFiles.read': op<BuildFileContent>()({
    summary: "One file of a container tool's folder",
    input: Type.Object({ ...ToolRef, path: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  }),
  'buildFiles.write': op<BuildFileContent>()({
    summary: "Create or replace one file of a container tool's folder, atomically (folders on the way are created)",
    input: Type.Object(
      {
        ...ToolRef,
        path: BuildFilePath,
        content: Type.String({ maxLength: 24 * 1024 * 1024 }),
        encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
        /** Default: executable when the file was, or when the content starts with `#!`. */
        executable: Type.Optional(Type.Boolean()),
        /** Refuse (MODIFIED_ELSEWHERE) unless the file still has these bytes. */
        ifSha256: Type.Optional(Sha256),
        /** Refuse (CONFLICT) if the file exists: an "add file" must not overwrite one. */
        mustNotExist: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'MODIFIED_ELSEWHERE', 'PAYLOAD_TOO_LARGE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'buildFiles.rename': op<{ from: string; to: string }>()({
    summary: "Rename or move one file inside a container tool's folder",
    input: Type.Object({ ...ToolRef, from: BuildFilePath, to: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'buildFiles.delete': op<{ deleted: true }>()({
    summary: "Delete one file of a container tool's folder (folders left empty go with it)",
    input: Type.Object({ ...ToolRef, path: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'tools.build': op<BuildResult>()({
    summary: "Build a container tool's image from its folder; the log streams as build.log events, tagged with buildID",
    input: Type.Object(
      {
        ...ToolRef,
        buildID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
        /** Build again without Docker's layer cache, even when an image of these files exists. */
        noCache: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'BUILTIN_READONLY'],
  }),
  'tools.image': op<ToolImage>()({
    summary: 'The image a container tool runs, whether it is built, and its size',
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE'],
  }),
} as const;
