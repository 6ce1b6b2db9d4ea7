/**
 * The categories of the original service, seeded by `bin/admin images seed-demo`, marked SFW as
 * the original marked them: animals.* are, furry.* by what each shows (the yiff ones, bulge and
 * butts are not).
 */
export const DEMO_CATEGORIES: ReadonlyArray<{ db: string; name: string; sfw: boolean; images: number }> = [
  { db: 'animals.birb', name: 'Animals > Birb', sfw: true, images: 3 },
  { db: 'animals.blep', name: 'Animals > Blep', sfw: true, images: 3 },
  { db: 'animals.dikdik', name: 'Animals > Dikdik', sfw: true, images: 3 },
  // Deliberately empty: shows how a category without content is listed (disabled).
  { db: 'animals.fox', name: 'Animals > Fox', sfw: true, images: 0 },
  { db: 'furry.boop', name: 'Furry > Boop', sfw: true, images: 3 },
  { db: 'furry.bulge', name: 'Furry > Bulge', sfw: false, images: 3 },
  { db: 'furry.butts', name: 'Furry > Butts', sfw: false, images: 3 },
  { db: 'furry.cuddle', name: 'Furry > Cuddle', sfw: true, images: 3 },
  { db: 'furry.flop', name: 'Furry > Flop', sfw: true, images: 3 },
  { db: 'furry.fursuit', name: 'Furry > Fursuit', sfw: true, images: 3 },
  { db: 'furry.hold', name: 'Furry > Hold', sfw: true, images: 3 },
  { db: 'furry.howl', name: 'Furry > Howl', sfw: true, images: 3 },
  { db: 'furry.hug', name: 'Furry > Hug', sfw: true, images: 3 },
  { db: 'furry.kiss', name: 'Furry > Kiss', sfw: true, images: 3 },
  { db: 'furry.lick', name: 'Furry > Lick', sfw: true, images: 3 },
  { db: 'furry.propose', name: 'Furry > Propose', sfw: true, images: 3 },
  { db: 'furry.yiff.andromorph', name: 'Furry > Yiff > Andromorph', sfw: false, images: 3 },
  { db: 'furry.yiff.gay', name: 'Furry > Yiff > Gay', sfw: false, images: 3 },
  { db: 'furry.yiff.gynomorph', name: 'Furry > Yiff > Gynomorph', sfw: false, images: 3 },
  { db: 'furry.yiff.lesbian', name: 'Furry > Yiff > Lesbian', sfw: false, images: 3 },
  { db: 'furry.yiff.straight', name: 'Furry > Yiff > Straight', sfw: false, images: 3 },
];

export const DEMO_ARTIST = 'Pawlink demo';
export const DEMO_SOURCE = 'https://example.com/pawlink-demo';
