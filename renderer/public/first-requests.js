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
  // A tab's first Intl object loads ICU's locale data (40–220 ms of the main thread on this machine
  // at load 6–7): here, in a task of its own while the entry chunk downloads and parses, instead of
  // in the first screen's render (its counts, lib/format.ts). The relative-time formatter brings the
  // number and plural data the others use too.
  setTimeout(function () {
    try {
      new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(1, 'day');
    } catch (e) {
      // No Intl: nothing to load early.
    }
  }, 0);
  if (window.toolwright) return;
  var hash = window.location.hash;
  var m = /(?:^#|&)token=([^&]+)/.exec(hash);
  var token;
  try {
    // A reload has no token in its address: the one the app kept for the tab.
    token = m ? decodeURIComponent(m[1]) : sessionStorage.getItem('toolwright.token');
  } catch (e) {
    token = undefined;
  }
  if (!token) return;
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
  if (m) {
    // The app takes the link's token from here (api/session.ts) and keeps it for the tab in
    // sessionStorage once the first screen has settled: a tab's first sessionStorage access is a
    // synchronous round trip to the browser process (33–118 ms of the main thread in traces at
    // load 3–9, right before the entry's evaluation), so nothing here touches it.
    window.__twLinkToken = token;
    // The token leaves the address bar now, for the address the app would then give the tool list
    // (lib/nav.tsx: hashOf, depth 0), so that it need not replace it again.
    try {
      window.history.replaceState({ depth: 0 }, '', window.location.pathname + window.location.search + '#/tools');
    } catch (e) {
      // An opaque origin: the app's own adoptTokenFromUrl tries again.
    }
  }
})();
