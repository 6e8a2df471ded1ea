/**
 * core.calc: arithmetic without eval. A tokenizer, a Pratt parser into a small tree, and an
 * evaluator that reports domain errors (division by zero, overflow, sqrt of a negative) with
 * the 1-based position of the operator or function that caused them.
 *
 * Precedence, loosest first: + -, then * / %, then unary minus, then ^ (right-associative),
 * so -2^2 = -4 and 2^3^2 = 512. Trigonometry is in radians; % keeps the sign of the dividend.
 */
import { CoreError } from '../errors.js';
import { defineFunction } from './types.js';
import { preBlock } from './html.js';

export const MAX_EXPRESSION_LENGTH = 1000;
const MAX_DEPTH = 200;

type BinaryOp = '+' | '-' | '*' | '/' | '%' | '^';

type Token =
  | { kind: 'num'; value: number; text: string; pos: number }
  | { kind: 'ident'; name: string; pos: number }
  | { kind: 'op'; op: BinaryOp; text: string; pos: number }
  | { kind: '(' | ')' | ','; pos: number }
  | { kind: 'end'; pos: number };

type Node =
  | { t: 'num'; value: number }
  | { t: 'neg'; operand: Node }
  | { t: 'bin'; op: BinaryOp; left: Node; right: Node; pos: number }
  | { t: 'call'; name: string; args: Node[]; pos: number };

export class CalcError extends CoreError {
  readonly position: number | undefined;
  constructor(message: string, position?: number) {
    super('INVALID_ARGS', position === undefined ? message : `${message} at ${position}`, position === undefined ? undefined : { position });
    this.position = position;
  }
}

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

interface FunctionSpec {
  minArgs: number;
  maxArgs: number;
  apply(args: number[], pos: number): number;
}

function positiveOnly(name: string, f: (x: number) => number): FunctionSpec {
  return {
    minArgs: 1,
    maxArgs: 1,
    apply: ([x], pos) => {
      if (x! <= 0) throw new CalcError(`${name} is defined only for positive numbers (got ${formatNumber(x!)})`, pos);
      return f(x!);
    },
  };
}

const unary = (f: (x: number) => number): FunctionSpec => ({ minArgs: 1, maxArgs: 1, apply: ([x]) => f(x!) });

const FUNCTIONS: Record<string, FunctionSpec> = {
  sqrt: {
    minArgs: 1,
    maxArgs: 1,
    apply: ([x], pos) => {
      if (x! < 0) throw new CalcError(`sqrt of a negative number (${formatNumber(x!)}) is not a real number`, pos);
      return Math.sqrt(x!);
    },
  },
  abs: unary(Math.abs),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  ln: positiveOnly('ln', Math.log),
  log10: positiveOnly('log10', Math.log10),
  min: { minArgs: 1, maxArgs: 1000, apply: (xs) => Math.min(...xs) },
  max: { minArgs: 1, maxArgs: 1000, apply: (xs) => Math.max(...xs) },
  round: {
    minArgs: 1,
    maxArgs: 2,
    apply: ([x, digits = 0], pos) => {
      if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
        throw new CalcError(`round's second argument (digits) must be a whole number from 0 to 15, got ${formatNumber(digits)}`, pos);
      }
      const factor = 10 ** digits;
      // Halves round away from zero, as people expect (JavaScript's Math.round sends -2.5 to -2).
      return (Math.sign(x!) * Math.round(Math.abs(x!) * factor)) / factor;
    },
  },
};

const KNOWN_NAMES = [...Object.keys(CONSTANTS), ...Object.keys(FUNCTIONS).map((f) => `${f}()`)].join(', ');

const OPERATOR_ALIASES: Record<string, BinaryOp> = { '×': '*', '÷': '/', '−': '-', '**': '^' };
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    const pos = i + 1;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const rest = input.slice(i, i + 400);
    const num = NUMBER.exec(rest);
    if (num) {
      const value = Number(num[0]);
      if (!Number.isFinite(value)) throw new CalcError(`number '${num[0]}' is too large`, pos);
      tokens.push({ kind: 'num', value, text: num[0], pos });
      i += num[0].length;
      continue;
    }
    const ident = IDENT.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', name: ident[0], pos });
      i += ident[0].length;
      continue;
    }
    if (rest.startsWith('**')) {
      tokens.push({ kind: 'op', op: '^', text: '**', pos });
      i += 2;
      continue;
    }
    if ('+-*/%^'.includes(ch) || ch in OPERATOR_ALIASES) {
      tokens.push({ kind: 'op', op: (OPERATOR_ALIASES[ch] ?? ch) as BinaryOp, text: ch, pos });
      i++;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: ch, pos });
      i++;
      continue;
    }
    const cp = input.codePointAt(i)!;
    const shown = String.fromCodePoint(cp);
    throw new CalcError(`unexpected character '${shown}' (U+${cp.toString(16).toUpperCase().padStart(4, '0')})`, pos);
  }
  tokens.push({ kind: 'end', pos: input.length + 1 });
  return tokens;
}

function describeToken(tok: Token): string {
  switch (tok.kind) {
    case 'num':
      return `number '${tok.text}'`;
    case 'ident':
      return `'${tok.name}'`;
    case 'op':
      return `'${tok.text}'`;
    case 'end':
      return 'end of expression';
    default:
      return `'${tok.kind}'`;
  }
}

/** Binding powers [left, right]; right < left makes ^ right-associative. */
const BINDING: Record<BinaryOp, [number, number]> = {
  '+': [1, 2],
  '-': [1, 2],
  '*': [3, 4],
  '/': [3, 4],
  '%': [3, 4],
  '^': [7, 6],
};
const UNARY_BINDING = 5;

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    return this.tokens[this.index++]!;
  }

  parseAll(): Node {
    const node = this.expression(0, 0);
    const tok = this.peek();
    if (tok.kind !== 'end') throw new CalcError(`unexpected ${describeToken(tok)}`, tok.pos);
    return node;
  }

  private expression(minBinding: number, depth: number): Node {
    const start = this.peek();
    if (depth > MAX_DEPTH) throw new CalcError(`expression nests deeper than ${MAX_DEPTH} levels`, start.pos);
    let left = this.prefix(depth);
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'num' || tok.kind === 'ident' || tok.kind === '(') {
        throw new CalcError(`unexpected ${describeToken(tok)}: an operator is missing (write 2*pi, not 2pi)`, tok.pos);
      }
      if (tok.kind !== 'op') return left;
      const [leftBinding, rightBinding] = BINDING[tok.op];
      if (leftBinding < minBinding) return left;
      this.next();
      const right = this.expression(rightBinding, depth + 1);
      left = { t: 'bin', op: tok.op, left, right, pos: tok.pos };
    }
  }

  private prefix(depth: number): Node {
    const tok = this.next();
    switch (tok.kind) {
      case 'num':
        return { t: 'num', value: tok.value };
      case 'op':
        if (tok.op === '-') return { t: 'neg', operand: this.expression(UNARY_BINDING, depth + 1) };
        if (tok.op === '+') return this.expression(UNARY_BINDING, depth + 1);
        throw new CalcError(`unexpected '${tok.text}': a number, name or '(' must come first`, tok.pos);
      case '(': {
        const inner = this.expression(0, depth + 1);
        const close = this.next();
        if (close.kind !== ')') {
          if (close.kind === 'end') throw new CalcError(`missing ')' to close the '(' at ${tok.pos}`, close.pos);
          throw new CalcError(`unexpected ${describeToken(close)}; expected ')'`, close.pos);
        }
        return inner;
      }
      case 'ident':
        return this.name(tok, depth);
      case 'end':
        throw new CalcError(`unexpected end of expression; expected a number, name or '('`, tok.pos);
      default:
        throw new CalcError(`unexpected ${describeToken(tok)}`, tok.pos);
    }
  }

  private name(tok: Extract<Token, { kind: 'ident' }>, depth: number): Node {
    const lower = tok.name.toLowerCase();
    // Own properties only: 'constructor' or '__proto__' must not reach Object.prototype.
    const fn = Object.hasOwn(FUNCTIONS, lower) ? FUNCTIONS[lower] : undefined;
    if (this.peek().kind === '(') {
      if (!fn) throw new CalcError(`unknown function '${tok.name}' (known: ${KNOWN_NAMES})`, tok.pos);
      this.next();
      const args: Node[] = [];
      if (this.peek().kind !== ')') {
        for (;;) {
          args.push(this.expression(0, depth + 1));
          const sep = this.next();
          if (sep.kind === ')') break;
          if (sep.kind === ',') continue;
          if (sep.kind === 'end') throw new CalcError(`missing ')' to close ${lower}(`, sep.pos);
          throw new CalcError(`unexpected ${describeToken(sep)}; expected ',' or ')'`, sep.pos);
        }
      } else this.next();
      if (args.length < fn.minArgs || args.length > fn.maxArgs) {
        const want = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : fn.maxArgs >= 1000 ? `at least ${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
        throw new CalcError(`${lower}() takes ${want} argument${/(^| )1$/.test(want) ? '' : 's'}, got ${args.length}`, tok.pos);
      }
      return { t: 'call', name: lower, args, pos: tok.pos };
    }
    if (Object.hasOwn(CONSTANTS, lower)) return { t: 'num', value: CONSTANTS[lower]! };
    if (fn) throw new CalcError(`${lower} is a function: write ${lower}(x)`, tok.pos);
    throw new CalcError(`unknown name '${tok.name}' (known: ${KNOWN_NAMES})`, tok.pos);
  }
}

function formatNumber(x: number): string {
  if (Object.is(x, -0)) return '0';
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return String(x);
  return String(Number(x.toPrecision(15)));
}

function checked(value: number, what: string, pos: number): number {
  if (Number.isNaN(value)) throw new CalcError(`${what} is not a real number`, pos);
  if (!Number.isFinite(value)) throw new CalcError(`overflow: ${what} exceeds ±${Number.MAX_VALUE}`, pos);
  return value;
}

function evaluate(node: Node): number {
  switch (node.t) {
    case 'num':
      return node.value;
    case 'neg':
      return -evaluate(node.operand);
    case 'call': {
      const args = node.args.map(evaluate);
      return checked(FUNCTIONS[node.name]!.apply(args, node.pos), `the result of ${node.name}()`, node.pos);
    }
    case 'bin': {
      const l = evaluate(node.left);
      const r = evaluate(node.right);
      switch (node.op) {
        case '+':
          return checked(l + r, 'the sum', node.pos);
        case '-':
          return checked(l - r, 'the difference', node.pos);
        case '*':
          return checked(l * r, 'the product', node.pos);
        case '/':
          if (r === 0) throw new CalcError('division by zero', node.pos);
          return checked(l / r, 'the quotient', node.pos);
        case '%':
          if (r === 0) throw new CalcError('modulo by zero', node.pos);
          return checked(l % r, 'the remainder', node.pos);
        case '^':
          if (l === 0 && r < 0) throw new CalcError('division by zero (0 raised to a negative power)', node.pos);
          return checked(l ** r, `${formatNumber(l)}^${formatNumber(r)}`, node.pos);
      }
    }
  }
}

/** Parses and evaluates an expression; throws CalcError (INVALID_ARGS) with the position of the problem. */
export function calculate(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new CalcError(`expression is ${expression.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are allowed`);
  }
  if (expression.trim() === '') throw new CalcError('expression is empty; write something like 2 * (3 + 4)');
  const value = evaluate(new Parser(tokenize(expression)).parseAll());
  return Object.is(value, -0) ? 0 : value;
}

interface CalcArgs {
  expression: string;
}

export const calcFunction = defineFunction<CalcArgs, { expression: string; value: number; text: string }>({
  name: 'core.calc',
  description:
    'Evaluate an arithmetic expression safely (no code execution): + - * / % ^ (power, right-associative), unary minus, ' +
    'parentheses, sqrt abs min max round floor ceil ln log10 sin cos tan (radians), constants pi and e.',
  argSchema: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION_LENGTH,
        description: 'The expression, e.g. "2 * (3 + 4) ^ 2 / sqrt(16)". Errors name the 1-based position of the problem.',
      },
    },
    required: ['expression'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      expression: { type: 'string', description: 'The expression as given.' },
      value: { type: 'number', description: 'The exact IEEE-754 double result.' },
      text: { type: 'string', description: 'The result rounded to 15 significant digits for display (0.1+0.2 shows as 0.3).' },
    },
    required: ['expression', 'value', 'text'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  run({ expression }) {
    const value = calculate(expression);
    const text = formatNumber(value);
    return {
      value: { expression, value, text },
      card: { title: 'Calculator', html: preBlock(`${expression} = ${text}`), text: `${expression} = ${text}` },
    };
  },
});
