// The lobby's pages (docs/web.md, "A new game", "The lobby"): the new game's form, sent
// through the JSON API, its options and "You" choices following the variant and the way
// powers are given; and the Join buttons of the lobby and of an invitation.
"use strict";

(() => {
  const { api, say, why } = window.hegemon;
  const MASTER = "I am its game master";

  // The field a refusal names ("body.play_as: …", "play_as: …"), marked as invalid.
  function markRefused(form, error) {
    for (const marked of form.querySelectorAll("[aria-invalid]")) marked.removeAttribute("aria-invalid");
    const named = /^(?:body\.)?(?:policy\.)?(?:option )?([a-z_]+)/.exec(error.message);
    const shown = (field) => field && !field.closest("[hidden]");
    const field =
      named && [...form.querySelectorAll(`[name="${named[1]}"], [data-option="${named[1]}"]`)].find(shown);
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.focus();
    }
  }

  function newGamePage() {
    const form = document.getElementById("hg-new-game");
    const variants = JSON.parse(document.getElementById("hg-variants").textContent);
    const fields = form.elements;
    const chosen = () => form.querySelector("input[name=variant]:checked").value;
    const options = () => form.querySelector(`fieldset[data-variant="${chosen()}"]`);

    function offerSeats() {
      const select = fields.play_as;
      const kept = select.value;
      const random = fields.assignment.value === "random";
      const choices = [["", MASTER]];
      if (random) choices.push(["random", "I play a power dealt at random"]);
      else if (fields.assignment.value === "chosen") {
        for (const power of variants[chosen()].powers) choices.push([power, `I play ${power}`]);
      }
      select.replaceChildren(...choices.map(([value, label]) => new Option(label, value)));
      if (choices.some(([value]) => value === kept)) select.value = kept;
      const note = document.getElementById("hg-play-as-note");
      note.textContent = select.value
        ? "The game has no game master: it starts when every seat is taken."
        : "You set it up and may start it before it is full; you play no power.";
    }

    function showOptions() {
      for (const set of form.querySelectorAll("fieldset[data-variant]")) set.hidden = set !== options();
      offerSeats();
    }

    function optionValues() {
      const values = {};
      for (const input of options().querySelectorAll("[data-option]")) {
        const kind = input.dataset.kind;
        values[input.dataset.option] =
          kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
      }
      return values;
    }

    function body() {
      const seats = [...options().querySelectorAll("input[name=seat]")];
      const other = Number(fields.other.value);
      return {
        variant: chosen(),
        title: fields.title.value,
        options: optionValues(),
        seats: seats.length ? seats.filter((box) => box.checked).map((box) => box.value) : null,
        private: fields.private.value === "yes",
        anonymous: fields.anonymous.checked,
        assignment: fields.assignment.value,
        play_as: fields.play_as.value || null,
        fill_with_bots: fields.fill_with_bots.checked,
        policy: {
          deadlines: { movement: Number(fields.movement.value), retreat: other, adjustment: other, other },
          disorder_bot: fields.disorder_bot.checked,
          press: {
            mode: fields.press.value,
            grey: fields.grey.checked,
            other_phases: fields.other_phases.checked,
            master_reads: fields.master_reads.checked,
          },
        },
      };
    }

    form.addEventListener("change", (event) => {
      if (event.target.name === "variant") showOptions();
      if (event.target.name === "assignment") offerSeats();
      if (event.target.name === "play_as") offerSeats();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const message = document.getElementById("hg-new-message");
      say(message, "Creating the game…");
      try {
        const game = await api("POST", "/api/games", body());
        if (game.invitation) location.assign(`/join/${game.invitation}`);
        else location.assign(game.you.role === "master" ? `/games/${game.id}/master` : `/games/${game.id}`);
      } catch (error) {
        say(message, `Not created: ${why(error)}`, true);
        markRefused(form, error);
      }
    });
    showOptions();
  }

  function joinButtons() {
    const message = document.getElementById("hg-lobby-message");
    for (const form of document.querySelectorAll("form.join")) {
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const seat = {};
        if (form.elements.power) seat.power = form.elements.power.value;
        if (form.dataset.code) seat.code = form.dataset.code;
        try {
          await api("POST", `/api/games/${form.dataset.game}/join`, seat);
          location.assign(`/games/${form.dataset.game}`);
        } catch (error) {
          say(message, `Not joined: ${why(error)}`, true);
        }
      });
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const page = document.body.dataset.page;
    if (page === "new-game") newGamePage();
    if (page === "lobby") joinButtons();
  });
})();
