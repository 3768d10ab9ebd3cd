// webpack's getting-started configuration: an entry, and an HTML page that loads the bundle.
const HtmlWebpackPlugin = require('html-webpack-plugin');

module.exports = {
  entry: './main.js',
  plugins: [new HtmlWebpackPlugin({ template: 'index.html' })],
};
