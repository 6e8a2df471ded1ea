/* global window */
/**
 * The first screen's requests, sent as soon as the HTML is read: before the entry chunk (420 KB)
 * is downloaded, parsed and run, which is when boot.ts could send them. A plain script, outside
 * the bundle, so that it runs without waiting for it. The API client takes these answers
 * (api/first-requests.ts) instead of sending the same requests again; what boot.ts does not take
 * within its first-screen wait is dropped. The URLs are those of the queries in api/queries.ts
 * (bundleListQuery, problemsQuery, configQuery, toolPagesQuery), built by shared/rest.ts:
 * test/renderer/first-requests.test.ts holds them equal. Over the desktop bridge this does nothing.
 * Loaded `async` (index.html): it does not wait for the stylesheet, and the entry's request
 * leaves before these four, so the host sends the code the start waits for first.
 */
(function () {
  if (window.toolwright) return;
  var hash = window.location.hash;
  var m = /(?:^#|&)token=([^&]+)/.exec(hash);
  var token;
  try {
    token = m ? decodeURIComponent(m[1]) : sessionStorage.getItem('toolwright.token');
  } catch (e) {
    token = undefined;
  }
  if (!token) return;
  // The token leaves the address bar here, as session.ts's adoptTokenFromUrl would do once the
  // entry has run: the first sessionStorage write waits on the browser process (26–90 ms of the
  // main thread in traces at load 8–9), here while the entry is still downloading instead.
  if (m) {
    try {
      sessionStorage.setItem('toolwright.token', token);
      // The address the app would then give the tool list (lib/nav.tsx: hashOf, depth 0), so it need not replace it again.
      window.history.replaceState({ depth: 0 }, '', window.location.pathname + window.location.search + '#/tools');
    } catch (e) {
      // No sessionStorage (an opaque origin): the app keeps the token in memory from the hash.
    }
  }
  var urls = ['/tools/bundles?includeDisabled=true&deleted=exclude&pageSize=1000', '/tools/problems', '/tools/config'];
  // The tool list (all bundles) is the screen of an address with no route, or only the token.
  var route = hash.replace(/^#\/?/, '').replace(/(^|&)token=[^&]*/, '');
  if (route === '') urls.push('/tools/tools?includeDisabled=true&recommendedPageSize=100');
  var sent = {};
  for (var i = 0; i < urls.length; i++) {
    var answer = fetch(urls[i], { headers: { Authorization: 'Bearer ' + token } });
    // Not taken: no unhandled rejection in the console.
    answer.catch(function () {});
    sent[urls[i]] = { token: token, answer: answer };
  }
  window.__twFirstRequests = sent;
})();
