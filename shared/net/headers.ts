/** HTTP header names and values as RFC 9110 allows them; plain checks the editor and the schemas share. */

/** RFC 9110 §5.1: a field name is a token (tchar+). */
export const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";
export const HEADER_NAME_MAX = 128;

/** Why a header name is refused (RFC 9110 token), or undefined when it is a valid one. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty; a header needs a name';
  if (name.length > HEADER_NAME_MAX) return `is longer than ${HEADER_NAME_MAX} characters`;
  if (!new RegExp(HEADER_NAME_PATTERN).test(name)) {
    return "is not a valid HTTP header name: use letters, digits and !#$%&'*+.^_`|~- only (no spaces, colons or control characters; RFC 9110 §5.1)";
  }
  return undefined;
}

/** Why a header value is refused: CR, LF and NUL would split or end the header. */
export function headerValueProblem(value: string): string | undefined {
  return /[\r\n\0]/.test(value) ? 'must not contain CR, LF or NUL characters' : undefined;
}
