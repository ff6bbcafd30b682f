/** plotly.js-basic-dist-min ships no types: it is plotly.js's API with the basic trace types. */
declare module 'plotly.js-basic-dist-min' {
  import Plotly from 'plotly.js';
  export default Plotly;
}
