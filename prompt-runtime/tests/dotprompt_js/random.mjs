// A small seeded generator (mulberry32), so a seed always gives the same cases: shared by
// the case generators of this folder.
export function seeded(seed) {
  let state = Number(seed) >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(random() * xs.length)],
    chance: (p) => random() < p,
  };
}
