// The service worker behind Web Push (push.js): shows a notice the server pushed, and opens its match
// when clicked.
self.addEventListener("push", function (event) {
  var data = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(data.title || "Aquawar Online", {data: {url: data.url}}));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  if (event.notification.data && event.notification.data.url) event.waitUntil(clients.openWindow(event.notification.data.url));
});
