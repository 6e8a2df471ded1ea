/* global window */
/**
 * The first screen's requests, sent as soon as the HTML is read: before the entry chunk (420 KB)
 * is downloaded, parsed and run, which is when boot.ts could send them. A plain script, outside
 * the bundle, so that it runs without waiting for it. The API client takes these answers
 * (api/first-requests.ts) instead of sending the same requests again; what boot.ts does not take
 * within its first-screen wait is dropped. The URLs are those of the queries in api/queries.ts
 * (bundleListQuery, problemsQuery, configQuery, toolPagesQuery), built by shared/rest.ts:
 * test/renderer/first-requests.test.ts holds them equal. Over the desktop bridge this does nothing.
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
