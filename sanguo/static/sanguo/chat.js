// The 三国 game's chat panel (sanguo/templates/sanguo/_chat.html). Everything works without this
// file (the channel switcher is a GET form, the box posts and the page comes back); with it a line
// is sent without leaving the page: the box is cleared, or says why the line was refused. The line
// itself comes with the page's next fetch (static/sanguo/game.js), which the socket rings for
// everyone who may read it.
(function () {
  "use strict";
  const root = document.getElementById("sanguo-game");
  if (!root) return;

  function scrollLog() {
    const log = document.querySelector("#sanguo-chat .chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  root.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-chat-form]");
    if (!form) return;
    event.preventDefault();
    const error = form.parentElement.querySelector("[data-chat-error]");
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const response = await fetch(form.action, { method: "POST", body: new FormData(form),
                                                   headers: { "X-Requested-With": "fetch" } });
      const answer = await response.json();
      error.textContent = answer.error || "";
      if (response.ok) form.querySelector("input[name=text]").value = "";
    } catch (failure) {
      error.textContent = form.dataset.offline;
    } finally {
      button.disabled = false;
    }
  });

  // The page's fetch replaces the panel's sections: the newest line stays in view.
  new MutationObserver(scrollLog).observe(root, { childList: true });
  scrollLog();
})();
