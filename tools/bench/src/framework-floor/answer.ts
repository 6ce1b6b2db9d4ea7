/** The answer both floor servers send: a random-image answer of one record, as the images service shapes it. */
export const FLOOR_ANSWER = {
  success: true,
  images: [
    {
      id: '6f1ed002ab5595859014ebf0951522d9',
      url: 'https://yiff.example/images/furry/hug/6f1ed002ab5595859014ebf0951522d9.png',
      shortURL: null,
      ext: 'png',
      type: 'image/png',
      size: 123_456,
      width: 1280,
      height: 720,
      category: 'furry.hug',
      thumbhash: null,
      sources: [],
      artists: ['someone'],
    },
  ],
  notes: [],
};
