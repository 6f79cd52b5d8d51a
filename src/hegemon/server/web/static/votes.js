// The votes panel of a game's page (docs/web.md, "Votes"): a button casts or withdraws
// the player's vote through the JSON API; the page is then read again, which shows the
// votes as the server now has them (and the game ended, paused or resumed, if the vote
// passed). The panel is drawn by the server, so this script only sends and tells.
"use strict";

(() => {
  const SAID = { cast: "Your vote is cast.", withdraw: "Your vote is withdrawn." };

  async function vote(button) {
    const panel = button.closest("#hg-votes");
    const message = panel.querySelector("#hg-votes-message");
    const { kind } = button.dataset;
    const cast = button.dataset.vote === "cast";
    const body = { kind, vote: cast };
    if (kind === "concede" && cast) body.to = panel.querySelector("#hg-concede-to").value;
    button.disabled = true;
    window.hegemon.say(message, "Sending…");
    try {
      await window.hegemon.api("POST", `/api/games/${panel.dataset.game}/votes`, body);
    } catch (error) {
      window.hegemon.say(message, window.hegemon.why(error), true);
      button.disabled = false;
      return;
    }
    await window.hegemon.refresh();
    // The panel is drawn again (or gone, if the game is over): keep the keyboard's place.
    const again = document.querySelector(`#hg-votes button[data-kind="${kind}"]`);
    if (again) {
      again.focus();
      window.hegemon.say(document.getElementById("hg-votes-message"), SAID[cast ? "cast" : "withdraw"]);
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("#hg-votes button[data-kind]");
    if (button) vote(button);
  });
})();
