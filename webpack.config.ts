import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { EsbuildPlugin } from 'esbuild-loader';
import webpack from 'webpack';
import type { Configuration } from 'webpack';
import 'webpack-dev-server';

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
    devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        { test: /\.[jt]sx?$/, exclude: /node_modules/, loader: 'esbuild-loader', options: { target: 'es2020', jsx: 'automatic' } },
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(png|jpe?g|gif|svg|webp|mp4|webm)$/i, type: 'asset' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './src/app/index.html' }),
      new webpack.DefinePlugin(
        Object.fromEntries(Object.entries(publicEnv).map(([k, v]) => [`process.env.${k}`, JSON.stringify(v)])),
      ),
    ],
    optimization: { minimizer: [new EsbuildPlugin({ target: 'es2020' })] },
    performance: { hints: false },
    devServer: {
      port: 8080,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: `http://localhost:${process.env.PORT ?? 3000}` }],
    },
  };
};
