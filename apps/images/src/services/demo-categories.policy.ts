/** The categories of the original service, seeded by `bin/admin images seed-demo`. */
export const DEMO_CATEGORIES: ReadonlyArray<{ db: string; name: string; images: number }> = [
  { db: 'animals.birb', name: 'Animals > Birb', images: 3 },
  { db: 'animals.blep', name: 'Animals > Blep', images: 3 },
  { db: 'animals.dikdik', name: 'Animals > Dikdik', images: 3 },
  // Deliberately empty: shows how a category without content is listed (disabled).
  { db: 'animals.fox', name: 'Animals > Fox', images: 0 },
  { db: 'furry.boop', name: 'Furry > Boop', images: 3 },
  { db: 'furry.bulge', name: 'Furry > Bulge', images: 3 },
  { db: 'furry.butts', name: 'Furry > Butts', images: 3 },
  { db: 'furry.cuddle', name: 'Furry > Cuddle', images: 3 },
  { db: 'furry.flop', name: 'Furry > Flop', images: 3 },
  { db: 'furry.fursuit', name: 'Furry > Fursuit', images: 3 },
  { db: 'furry.hold', name: 'Furry > Hold', images: 3 },
  { db: 'furry.howl', name: 'Furry > Howl', images: 3 },
  { db: 'furry.hug', name: 'Furry > Hug', images: 3 },
  { db: 'furry.kiss', name: 'Furry > Kiss', images: 3 },
  { db: 'furry.lick', name: 'Furry > Lick', images: 3 },
  { db: 'furry.propose', name: 'Furry > Propose', images: 3 },
  { db: 'furry.yiff.andromorph', name: 'Furry > Yiff > Andromorph', images: 3 },
  { db: 'furry.yiff.gay', name: 'Furry > Yiff > Gay', images: 3 },
  { db: 'furry.yiff.gynomorph', name: 'Furry > Yiff > Gynomorph', images: 3 },
  { db: 'furry.yiff.lesbian', name: 'Furry > Yiff > Lesbian', images: 3 },
  { db: 'furry.yiff.straight', name: 'Furry > Yiff > Straight', images: 3 },
];

export const DEMO_ARTIST = 'Pawlink demo';
export const DEMO_SOURCE = 'https://example.com/pawlink-demo';
