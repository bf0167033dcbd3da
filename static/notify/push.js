// Web Push: on the notification settings page, subscribe this browser (a service worker, sw.js, shows
// what arrives) and hand the subscription to the server. Without JavaScript or Push API support the
// section stays hidden: mail and the site still tell.
(function () {
  "use strict";
  var section = document.getElementById("push");
  if (!section || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  section.hidden = false;
  var state = section.querySelector("[data-push-state]");

  function bytes(base64url) {
    var raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function csrf() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? match[1] : "";
  }

  section.querySelector("[data-push-allow]").addEventListener("click", function () {
    navigator.serviceWorker.register(section.dataset.workerUrl).then(function (registration) {
      return registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: bytes(section.dataset.vapidKey)});
    }).then(function (subscription) {
      var keys = subscription.toJSON().keys;
      var body = new URLSearchParams({endpoint: subscription.endpoint, p256dh: keys.p256dh, auth: keys.auth});
      return fetch(section.dataset.subscribeUrl, {method: "POST", body: body, headers: {"X-CSRFToken": csrf()}, credentials: "same-origin"});
    }).then(function (response) {
      state.textContent = response.ok ? "✓" : "✗";
    }).catch(function () { state.textContent = "✗"; });
  });
})();
