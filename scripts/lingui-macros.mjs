// Lingui's macros (`Trans`, `t`, `msg`, `plural`...) are written in the web app's code and turned
// into calls of the runtime when the code is built or tested: a Vite plugin that runs Babel with
// Lingui's macro plugin on the files that import a macro, and on nothing else (the React plugin's
// own transform does the rest).
import { transformAsync } from '@babel/core';

const MACRO_IMPORT = /from\s+['"]@lingui\/(core|react)\/macro['"]/;

/** @returns {import('vite').Plugin} */
export function linguiMacros() {
  return {
    name: 'portal-lingui-macros',
    enforce: 'pre',
    async transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[jt]sx?$/.test(id.split('?')[0]) || !MACRO_IMPORT.test(code)) return null;
      const result = await transformAsync(code, {
        filename: id.split('?')[0],
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: ['typescript', 'jsx'] },
        plugins: ['@lingui/babel-plugin-lingui-macro'],
      });
      return result?.code == null ? null : { code: result.code, map: result.map };
    },
  };
}
