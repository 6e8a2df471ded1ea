/** How large a container tool's build context may be: the file rules check it without loading the tar writer. */
export const MAX_CONTEXT_BYTES = 64 * 1024 * 1024;
export const MAX_CONTEXT_ENTRIES = 5000;
