/**
 * The answers to the first screen's requests that public/first-requests.js sent while the page
 * was still loading its code. callRest takes each once, for the same URL and token, instead of
 * asking again; boot.ts drops the rest after the first screen's wait, so no answer is ever read
 * long after it was sent.
 */
interface FirstRequest {
  token: string;
  answer: Promise<Response>;
}

declare global {
  interface Window {
    __twFirstRequests?: Record<string, FirstRequest>;
  }
}

/** The early answer to GET `url` sent with `bearer`, once; undefined when there is none. */
export function takeFirstRequest(url: string, bearer: string | undefined): Promise<Response> | undefined {
  const sent = typeof window === 'undefined' ? undefined : window.__twFirstRequests;
  const request = sent?.[url];
  if (!request) return undefined;
  delete sent[url];
  return request.token === bearer ? request.answer : undefined;
}

/** Forgets the early answers nobody took. */
export function dropFirstRequests(): void {
  if (typeof window !== 'undefined') delete window.__twFirstRequests;
}
