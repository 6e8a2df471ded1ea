import { describe, it, expect } from 'vitest';
import { calculate, calcFunction, CalcError, MAX_EXPRESSION_LENGTH } from '../../../../electron/core/functions/calc.js';
import { contextFor, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

function errorOf(expression: string): CalcError {
  try {
    calculate(expression);
  } catch (e) {
    expect(e).toBeInstanceOf(CalcError);
    return e as CalcError;
  }
  throw new Error(`'${expression}' evaluated without error`);
}

describe('core.calc evaluation', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512], // right-associative
    ['(2 ^ 3) ^ 2', 64],
    ['-2 ^ 2', -4], // unary minus binds looser than ^
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['--3', 3],
    ['+4 - -4', 8],
    ['7 % 3', 1],
    ['-7 % 3', -1],
    ['10 / 4', 2.5],
    ['2 ** 10', 1024],
    ['6 × 7 ÷ 2 − 1', 20],
    ['1.5e3 + .5', 1500.5],
    ['sqrt(16) + abs(-3)', 7],
    ['min(4, 2, 8) + max(1, 9, 3)', 11],
    ['round(2.5) + round(-2.5)', 0],
    ['round(3.14159, 2)', 3.14],
    ['floor(-1.5) + ceil(1.2)', 0],
    ['ln(e)', 1],
    ['log10(1000)', 3],
    ['PI', Math.PI],
    ['sin(0) + cos(0)', 1],
    ['tan(pi / 4)', Math.tan(Math.PI / 4)],
    ['2 * (3 + 4) ^ 2 / sqrt(16)', 24.5],
    ['-0', 0],
    ['  42  ', 42],
  ])('%s = %s', (expression, expected) => {
    const value = calculate(expression);
    expect(value).toBeCloseTo(expected, 12);
    expect(Object.is(value, -0)).toBe(false);
  });

  it('agrees with a direct evaluation of random expression trees (precedence and associativity)', () => {
    type Tree = number | { op: '+' | '-' | '*' | '/' | '^'; l: Tree; r: Tree } | { neg: Tree };
    const PREC = { '+': 1, '-': 1, '*': 2, '/': 2, '^': 4 } as const;
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const gen = (depth: number): Tree => {
      if (depth === 0 || rand() < 0.25) return Math.floor(rand() * 9) + 1;
      if (rand() < 0.15) return { neg: gen(depth - 1) };
      const ops = ['+', '-', '*', '/', '^'] as const;
      const op = ops[Math.floor(rand() * ops.length)]!;
      return { op, l: gen(depth - 1), r: op === '^' ? Math.floor(rand() * 3) + 1 : gen(depth - 1) };
    };
    const value = (t: Tree): number => {
      if (typeof t === 'number') return t;
      if ('neg' in t) return -value(t.neg);
      const l = value(t.l);
      const r = value(t.r);
      return t.op === '+' ? l + r : t.op === '-' ? l - r : t.op === '*' ? l * r : t.op === '/' ? l / r : l ** r;
    };
    // Renders with the fewest parentheses our grammar needs: unary minus sits between * and ^.
    const prec = (t: Tree): number => (typeof t === 'number' ? 9 : 'neg' in t ? 3 : PREC[t.op]);
    const render = (t: Tree): string => {
      if (typeof t === 'number') return String(t);
      if ('neg' in t) return '-' + (prec(t.neg) < 3 ? `(${render(t.neg)})` : render(t.neg));
      const p = PREC[t.op];
      const rightAssoc = t.op === '^';
      const needL = rightAssoc ? prec(t.l) <= p : prec(t.l) < p;
      const needR = rightAssoc ? prec(t.r) < p : prec(t.r) <= p;
      return `${needL ? `(${render(t.l)})` : render(t.l)} ${t.op} ${needR ? `(${render(t.r)})` : render(t.r)}`;
    };
    let checked = 0;
    for (let i = 0; i < 500; i++) {
      const tree = gen(5);
      const expected = value(tree);
      const text = render(tree);
      if (!Number.isFinite(expected) || text.length > MAX_EXPRESSION_LENGTH) continue;
      let got: number;
      try {
        got = calculate(text);
      } catch (e) {
        // Division by zero inside the tree is a legitimate refusal.
        expect((e as Error).message).toMatch(/division by zero|overflow/);
        continue;
      }
      expect(got, text).toBeCloseTo(expected, 6);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('core.calc errors name the position', () => {
  it.each([
    ['(1 + 2))', "unexpected ')' at 8"],
    ['1 +', 'unexpected end of expression'],
    ['2 $ 3', "unexpected character '$' (U+0024) at 3"],
    ['2pi', "unexpected 'pi': an operator is missing (write 2*pi, not 2pi) at 2"],
    ['(1 + 2', "missing ')' to close the '(' at 1 at 7"],
    ['* 3', "unexpected '*': a number, name or '(' must come first at 1"],
    ['1 / 0', 'division by zero at 3'],
    ['5 % (2 - 2)', 'modulo by zero at 3'],
    ['0 ^ -1', 'division by zero (0 raised to a negative power) at 3'],
    ['10 ^ 400', 'overflow: 10^400 exceeds'],
    ['1e308 * 10', 'overflow: the product exceeds'],
    ['1e999', "number '1e999' is too large at 1"],
    ['sqrt(-4)', 'sqrt of a negative number (-4) is not a real number at 1'],
    ['ln(0)', 'ln is defined only for positive numbers (got 0) at 1'],
    ['(-8) ^ 0.5', '-8^0.5 is not a real number at 6'],
    ['foo + 1', "unknown name 'foo'"],
    ['bar(1)', "unknown function 'bar'"],
    ['sqrt + 1', 'sqrt is a function: write sqrt(x) at 1'],
    ['sqrt(1, 2)', 'sqrt() takes 1 argument, got 2 at 1'],
    ['max()', 'max() takes at least 1 argument, got 0 at 1'],
    ['round(1, 2, 3)', 'round() takes 1 to 2 arguments, got 3 at 1'],
    ['round(1, 2.5)', "round's second argument (digits) must be a whole number"],
    ['min(1 2)', "unexpected number '2'"],
    ['', 'expression is empty'],
    ['constructor', "unknown name 'constructor'"],
    ['__proto__', "unknown name '__proto__'"],
    ['toString(1)', "unknown function 'toString'"],
    ['hasOwnProperty(1)', "unknown function 'hasOwnProperty'"],
    ['process.exit(1)', "unexpected character '.'"],
  ])('%s → %s', (expression, message) => {
    const err = errorOf(expression);
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toContain(message);
  });

  it('puts the position into details', () => {
    expect(errorOf('1 + )').details).toEqual({ position: 5 });
  });

  it('refuses input over the length cap and nesting too deep to parse', () => {
    expect(errorOf('1+'.repeat(MAX_EXPRESSION_LENGTH / 2) + '1').message).toMatch(/at most 1000 are allowed/);
    const deep = '('.repeat(400) + '1' + ')'.repeat(400);
    expect(deep.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
    expect(errorOf(deep).message).toMatch(/nests deeper than 200 levels/);
    expect(errorOf('-'.repeat(600) + '1').message).toMatch(/nests deeper/);
  });
});

describe('core.calc as a function', () => {
  it('returns value, display text and a card with escaped html', async () => {
    const out = await calcFunction.run({ expression: '0.1 + 0.2' }, contextFor('core.calc', {}));
    expect(out.value).toEqual({ expression: '0.1 + 0.2', value: 0.1 + 0.2, text: '0.3' });
    expectMatchesOutputSchema(calcFunction, out.value);
    expect(out.card?.html).toBe('<pre>0.1 + 0.2 = 0.3</pre>');
    const err = errorOf('1 < 2');
    expect(err.message).toContain("'<'");
  });
});
