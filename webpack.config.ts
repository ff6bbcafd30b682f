import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { EsbuildPlugin } from 'esbuild-loader';
import webpack from 'webpack';
import type { Configuration } from 'webpack';
import 'webpack-dev-server';

/**
 * Copies src/app/public (favicon, web manifest, app icons) to the root of the build, unhashed,
 * since browsers ask for /favicon.ico and the manifest names its icons by fixed paths.
 */
class PublicFilesPlugin {
  constructor(private readonly dir: string) {}
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('PublicFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PublicFilesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const name of readdirSync(this.dir)) {
          const file = path.join(this.dir, name);
          compilation.fileDependencies.add(file);
          compilation.emitAsset(name, new webpack.sources.RawSource(readFileSync(file)));
        }
      });
    });
  }
}

/**
 * A second minifying pass with terser over the chunks esbuild has minified: esbuild (in
 * transform mode) keeps functions nothing calls, so a library shipped as one big module
 * (react-router 7, Fluent's icon files) keeps all of it; terser's `unused` pass drops what
 * webpack's usedExports left unreferenced. Chunks over `maxBytes` (the already-minified Plotly
 * bundle) are skipped. terser is the one html-webpack-plugin already installs.
 */
class TerserPassPlugin {
  constructor(private readonly maxBytes = 900_000) {}
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('TerserPassPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'TerserPassPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        async (assets) => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const { minify } = require('terser') as typeof import('terser');
          for (const name of Object.keys(assets)) {
            if (!name.endsWith('.js')) continue;
            const asset = compilation.getAsset(name)!;
            const { source, map } = asset.source.sourceAndMap();
            const code = source.toString();
            if (code.length > this.maxBytes) continue;
            const out = await minify(code, {
              ecma: 2020,
              compress: { passes: 2 },
              mangle: true,
              sourceMap: map ? { content: map as never, asObject: true } : false,
            });
            if (!out.code) continue;
            const next = out.map
              ? new webpack.sources.SourceMapSource(out.code, name, out.map as never, code, map as never, true)
              : new webpack.sources.RawSource(out.code);
            compilation.updateAsset(name, next);
          }
        },
      );
    });
  }
}

/**
 * Builds the browser shell and every plugin under plugins/ (discovered with require.context).
 * Only the variables listed here reach the bundle; no credential ever does.
 */
export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const mode = argv.mode ?? 'production';
  const publicEnv = {
    NODE_ENV: mode,
    API_HOST_DEV: process.env.API_HOST_DEV ?? '',
    API_HOST_STAGING: process.env.API_HOST_STAGING ?? '',
    API_HOST_PRODUCTION: process.env.API_HOST_PRODUCTION ?? '',
    ANALYTICS_SCRIPT_URL: process.env.ANALYTICS_SCRIPT_URL ?? '',
    SESSION_RECORDING_SCRIPT_URL: process.env.SESSION_RECORDING_SCRIPT_URL ?? '',
  };
  return {
    mode,
    entry: { main: './src/app/main.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist'),
      filename: mode === 'production' ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: mode === 'production' ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      publicPath: '/',
      chunkLoadTimeout: 120_000,
      clean: true,
    },
    // production ships no source maps (issue 7, item 10); SOURCE_MAPS=true writes them as hidden
    // maps (no sourceMappingURL comment) for an error tracker, to be kept off the public server
    devtool: mode === 'production' ? (process.env.SOURCE_MAPS === 'true' ? 'hidden-source-map' : false) : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // @rjsf/core's markdown renderer (82 KB minified, a third of the form stack) for text our forms
      // never format: a small inline one instead (src/app/forms/light-markdown.tsx says what it renders)
      // and @rjsf/utils's URI library (for $ref into a 2020-12 bundle) a small RFC 3986 resolver
      // checked against it (src/app/forms/uri.ts, tests/unit/forms/uri.test.ts)
      alias: {
        // react-router 7's package exports name only its development build (warnings on, dev-only
        // checks kept; remix-run/react-router#12532, #14102): the production build it ships beside it
        ...(mode === 'production'
          ? {
              'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs'),
              'react-router/dom$': path.resolve(__dirname, 'node_modules/react-router/dist/production/dom-export.mjs'),
            }
          : {}),
        'markdown-to-jsx/react$': path.resolve(__dirname, 'src/app/forms/light-markdown.tsx'),
        'fast-uri$': path.resolve(__dirname, 'src/app/forms/uri.ts'),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: [
            // production: our makeStyles/makeResetStyles calls compiled at build time to the CSS
            // rules and class names Fluent's own packages already ship precompiled (Griffel's
            // "AOT" mode), so the browser needs neither Griffel's style compiler (stylis,
            // rtl-css-js) nor Fluent's token table: 12 KB gzip off the main chunk (issue 7 'Speed')
            ...(mode === 'production'
              ? [{
                  loader: '@griffel/webpack-loader',
                  options: { modules: [{ moduleSource: '@fluentui/react-components', importName: 'makeStyles', resetImportName: 'makeResetStyles' }] },
                }]
              : []),
            { loader: 'esbuild-loader', options: { target: 'es2020', jsx: 'automatic' } },
          ],
        },
        // Our own modules have no import-time side effects (the entry aside), so a re-export that is
        // not used (e.g. SchemaForm in the public face src/app/index.ts, which every plugin's
        // index.ts imports) does not drag its module graph into the main chunk.
        { test: /[\\/](src[\\/](app|core)|plugins)[\\/].*\.[jt]sx?$/, exclude: [/node_modules/, /[\\/]src[\\/]app[\\/]main\.tsx$/], sideEffects: false },
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(png|jpe?g|gif|svg|webp|mp4|webm)$/i, type: 'asset' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './src/app/index.html' }),
      new PublicFilesPlugin(path.resolve(__dirname, 'src/app/public')),
      // rjsf's default registry (every field, widget and template it has) through our own index
      // files, which load the parts no first screen shows (arrays, layout grids, date/colour/file/
      // rating widgets…) on first use: src/app/forms/rjsf-registry/ (issue 7, 'Speed')
      new webpack.NormalModuleReplacementPlugin(/^\.\/components\/(fields|widgets|templates)\/index\.js$/, (resource: { context: string; request: string }) => {
        const kind = /^\.\/components\/(fields|widgets|templates)\//.exec(resource.request)?.[1];
        if (kind && /[\\/]@rjsf[\\/]core[\\/]lib$/.test(resource.context)) {
          resource.request = path.resolve(__dirname, `src/app/forms/rjsf-registry/${kind}.ts`);
        }
      }),
      // @rjsf/utils' deepEquals (fast-equals' createCustomEqual with rjsf's options, ~2.5 KB gzip):
      // the same comparison in a small module (src/app/forms/deep-equals.ts, checked against
      // fast-equals in tests/unit/forms/deep-equals.test.ts); and its allOf merger
      // (@x0k/json-schema-merge, ~3.6 KB gzip): a stand-in, the real one is a chunk <SchemaForm>
      // loads for a schema with allOf (src/app/forms/all-of-merge-stub.ts, all-of.ts)
      new webpack.NormalModuleReplacementPlugin(/^\.\.?\/(schema\/)?(deepEquals|shallowAllOfMerge)\.js$/, (resource: { context: string; request: string }) => {
        const file = path.join(resource.context, resource.request).split(path.sep).join('/');
        if (file.endsWith('/@rjsf/utils/lib/deepEquals.js')) resource.request = path.resolve(__dirname, 'src/app/forms/deep-equals.ts');
        if (file.endsWith('/@rjsf/utils/lib/schema/shallowAllOfMerge.js')) resource.request = path.resolve(__dirname, 'src/app/forms/all-of-merge-stub.ts');
      }),
      new webpack.DefinePlugin(
        Object.fromEntries(Object.entries(publicEnv).map(([k, v]) => [`process.env.${k}`, JSON.stringify(v)])),
      ),
    ],
    optimization: {
      minimizer: [new EsbuildPlugin({ target: 'es2020' }), new TerserPassPlugin()],
      splitChunks: {
        cacheGroups: {
          // Fluent's Badge (the header's Beta badge, every card's status) is under splitChunks'
          // 20 kB minimum on its own, so webpack copied it into each chunk that shares it and the
          // setup screen downloaded it twice: one chunk of its own
          badge: { test: /[\\/]node_modules[\\/]@fluentui[\\/]react-badge[\\/]/, name: 'fluent-badge', chunks: 'async', enforce: true },
        },
      },
    },
    performance: { hints: false },
    devServer: {
      port: 8080,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: `http://localhost:${process.env.PORT ?? 3000}` }],
    },
  };
};
