// A local ESLint rule: an error dropped on purpose is dropped through ignore() (src/base/ignore.ts), which names
// the reason and leaves a trace under BROWSER_AGENT_DEBUG, so "on purpose" reads differently from "forgotten".
const hint = "name the reason: ignore(e, 'why') from src/base/ignore.ts";

const isFunction = (node) => node && (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression');

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'errors are dropped through ignore(), never by an empty catch or a .catch() that takes no error' },
    messages: {
      emptyCatch: `An empty catch block drops the error silently (a comment does not count); ${hint}.`,
      blindCatch: `A .catch() callback that takes no error drops it silently; ${hint}.`,
    },
    schema: [],
  },
  create(context) {
    return {
      CatchClause(node) {
        if (node.body.body.length === 0) context.report({ node, messageId: 'emptyCatch' });
      },
      CallExpression(node) {
        const callee = node.callee;
        const isCatch = callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'catch';
        if (isCatch && isFunction(node.arguments[0]) && node.arguments[0].params.length === 0) context.report({ node: node.arguments[0], messageId: 'blindCatch' });
      },
    };
  },
};
