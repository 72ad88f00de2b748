/** A key whose window a test can spend: the rate-limit runs of the tests and mutants use it. */

/** The secret of the small-window key. */
export const smallWindowKey = 'small-window-test-key';

/** Fake options with `smallWindowKey` on an 8-per-minute plan, beside a Free plan. */
export const smallWindowFake = {
  keys: {
    plans: { free: { perMinute: 60, perDay: 1000 }, small: { perMinute: 8, perDay: 1000 } },
    keys: [{ id: 'small', key: smallWindowKey, plan: 'small' }],
  },
};
