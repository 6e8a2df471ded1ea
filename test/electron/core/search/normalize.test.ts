import { describe, expect, it } from 'vitest';
import { MAX_WORD_LENGTH, foldText, maxEditDistance, phraseKey, tokenize } from '../../../../electron/core/search/normalize.js';

describe('foldText', () => {
  it.each([
    ['météo', 'meteo'],
    ['me\u0301te\u0301o', 'meteo'], // NFD input
    ['MÉTÉO', 'meteo'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['Ærøskøbing', 'aeroskobing'],
    ['Łódź', 'lodz'],
    ['ｗｅａｔｈｅｒ', 'weather'], // fullwidth
    ['ﬁle', 'file'], // ligature
    ['İstanbul', 'istanbul'], // dotted capital I leaves no stray dot
    ['ΟΔΟΣ', 'οδοσ'], // final sigma folds with medial sigma
    ['οδός', 'οδοσ'],
    ['Ёлка', 'елка'],
    ['עִבְרִית', 'עברית'], // Hebrew points dropped
  ])('%s → %s', (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });

  it.each([
    ['が', 'が'], // dakuten is part of the letter: が ≠ か
    ['ガ', 'ガ'],
    ['हिन्दी', 'हिन्दी'], // Devanagari vowel signs stay
    ['ไทย', 'ไทย'],
    ['한국어', '한국어'], // Hangul recomposes
  ])('keeps letters whose marks matter: %s', (input, folded) => {
    expect(foldText(input)).toBe(folded);
    expect(foldText(input.normalize('NFD'))).toBe(folded);
  });
});

describe('tokenize', () => {
  it.each([
    ['wetter-なう', ['wetter', 'なう']],
    ['Weather Now', ['weather', 'now']],
    ['get_weather.v2', ['get', 'weather', 'v2']],
    ['  ¡Hola!  ¿qué tal?  ', ['hola', 'que', 'tal']],
    ['rain🌧️wind', ['rain', 'wind']], // U+FE0F after the emoji is a mark
    ['1️⃣ keycap', ['1', 'keycap']],
    ['- \u3099orphan', ['orphan']], // a kept mark (dakuten) with no letter before it
    ['', []],
    ['---', []],
    ['a\u0000b\tc\nd', ['a', 'b', 'c', 'd']],
    ['हिन्दी-समाचार', ['हिन्दी', 'समाचार']],
  ])('%j → %j', (input, words) => {
    expect(tokenize(input)).toEqual(words);
  });

  it('cuts very long words without splitting a surrogate pair', () => {
    expect(tokenize('x'.repeat(200))).toEqual(['x'.repeat(MAX_WORD_LENGTH)]);
    const astral = 'a' + '𝐀'.repeat(100); // U+1D400 folds to 'a' under NFKD, so use a letter that does not
    const cut = tokenize(astral)[0]!;
    expect(cut.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
    const han = 'a' + '𠀀'.repeat(100); // CJK Extension B: two UTF-16 units each
    const hanCut = tokenize(han)[0]!;
    expect(hanCut.length).toBe(MAX_WORD_LENGTH - 1);
    expect(hanCut.endsWith('𠀀')).toBe(true);
  });

  it('phraseKey joins the folded words with single spaces', () => {
    expect(phraseKey('Weather — NOW!')).toBe('weather now');
    expect(phraseKey('weather_now')).toBe('weather now');
  });
});

describe('maxEditDistance', () => {
  it.each([
    ['a', 0],
    ['api', 0],
    ['なう', 0],
    ['invo', 1],
    ['meteo', 1],
    ['wether', 2],
    ['calender', 2],
  ])('%s → %i', (word, edits) => {
    expect(maxEditDistance(word)).toBe(edits);
  });
});
