// Notifications (docs/web.md, "Notifications"): the account page's form of what the
// account is told by mail, and the game master's webhooks on the master page. Each sends
// through the JSON API; the webhooks' list is drawn by the server, read again after a
// change (the form to add one is kept as it is when the page is read again: a URL half
// typed survives a phase adjudicated meanwhile).
"use strict";

(() => {
  const { api, say, why, refresh } = window.hegemon;

  function noticesForm(form) {
    const message = document.getElementById("hg-message");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = {
        email: form.elements.email.value.trim() || null,
        events: [...form.querySelectorAll("input[name=events]:checked")].map((box) => box.value),
        hours: Number(form.elements.hours.value),
      };
      try {
        await api("PUT", "/api/me/notifications", body);
        say(message, body.email ? `Saved: mail goes to ${body.email}.` : "Saved: no mail.");
      } catch (error) {
        say(message, why(error), true);
      }
    });
  }

  function webhooks(section) {
    const path = `/api/games/${section.dataset.game}/webhooks`;
    section.addEventListener("submit", async (event) => {
      if (event.target.id !== "hg-webhook-add") return;
      event.preventDefault();
      const form = event.target;
      try {
        await api("POST", path, { url: form.elements.url.value.trim() });
      } catch (error) {
        say(form.querySelector(".message"), why(error), true);
        return;
      }
      form.reset();
      say(form.querySelector(".message"), "");
      await refresh();
      document.getElementById("hg-webhook-url")?.focus();
    });
    section.addEventListener("click", async (event) => {
      const button = event.target.closest("[data-remove-webhook]");
      if (!button) return;
      try {
        await api("DELETE", `${path}/${button.dataset.removeWebhook}`);
      } catch (error) {
        say(document.getElementById("hg-webhook-message"), why(error), true);
        return;
      }
      await refresh();
      document.getElementById("hg-webhook-url")?.focus();
    });
  }

  function start() {
    const form = document.getElementById("hg-notices");
    if (form) noticesForm(form);
    const section = document.getElementById("hg-webhooks");
    if (section && !section.dataset.bound) {
      section.dataset.bound = "yes";
      webhooks(section);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("hegemon:refreshed", start);
})();
