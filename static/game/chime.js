// A short sound made in the browser (no audio file to fetch): window.chime([pitch in Hz, …]) plays
// the pitches one after another, and says whether it did (false when muted or without Web Audio).
// Silent where the browser allows no sound yet (no click so far).
(function () {
  "use strict";

  // The match page's sound switch (static/game/attention.js) mutes every chime, remembered here.
  function muted() {
    try { return window.localStorage.getItem("match-sound") === "off"; } catch (error) { return false; }
  }

  window.chime = function (pitches) {
    if (muted()) return false;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    try {
      var audio = new Context();
      pitches.forEach(function (pitch, index) {
        var tone = audio.createOscillator();
        var gain = audio.createGain();
        var start = audio.currentTime + index * 0.15;
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.15, start);
        gain.gain.exponentialRampToValueAtTime(0.001, start + 0.3);
        tone.connect(gain).connect(audio.destination);
        tone.start(start);
        tone.stop(start + 0.3);
      });
    } catch (error) {
      return false;  // The page says it in words anyway.
    }
    return true;
  };
})();
