/** jsdom has no canvas: charts are tested for real in Chromium. */
const Plotly = { newPlot: () => Promise.resolve(), react: () => Promise.resolve(), purge: () => undefined, Plots: { resize: () => undefined } };
export default Plotly;
