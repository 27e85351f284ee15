// The table's sounds, made on the spot with WebAudio (no sound files): a card laid down, a trick
// gathered, the chalk on the slate. Loaded by js/settings.js only once the player turns sound on.

let context = null;

/** The audio context, made (or resumed) on the player's gesture that turned sound on. */
export function wake() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A burst of noise through a band-pass filter: the grain of card, cloth and chalk. */
function noise(audio, { start, length, frequency, q, volume }) {
  const frames = Math.max(1, Math.floor(audio.sampleRate * length));
  const buffer = audio.createBuffer(1, frames, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = q;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  source.connect(filter).connect(gain).connect(audio.destination);
  source.start(start);
}

const SOUNDS = {
  // A short snap.
  card: (audio, now) => noise(audio, { start: now, length: 0.07, frequency: 2400, q: 0.9, volume: 0.5 }),
  // Four cards swept together: two soft brushes.
  trick: (audio, now) => {
    noise(audio, { start: now, length: 0.12, frequency: 900, q: 0.7, volume: 0.35 });
    noise(audio, { start: now + 0.09, length: 0.16, frequency: 700, q: 0.7, volume: 0.3 });
  },
  // Chalk scratched on the slate.
  chalk: (audio, now) => {
    noise(audio, { start: now, length: 0.22, frequency: 3800, q: 4, volume: 0.25 });
    noise(audio, { start: now + 0.26, length: 0.18, frequency: 3400, q: 4, volume: 0.2 });
  },
};

export function play(kind) {
  const audio = wake();
  const sound = SOUNDS[kind];
  if (!audio || !sound) return;
  // A context made after a reload waits for the page's first gesture; the sound follows it.
  if (audio.state === "running") sound(audio, audio.currentTime);
  else audio.resume().then(() => sound(audio, audio.currentTime), () => {});
}
