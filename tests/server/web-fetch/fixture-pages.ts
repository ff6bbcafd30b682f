/** The article of the Brightwater company pages: a heading and four paragraphs, for the reader to find. */
export const BRIGHTWATER_ARTICLE = `    <h1>Finding every leak before it becomes a flood</h1>
    <p>Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks. Our sensors clip onto existing pipes and listen for the sound of escaping water around the clock.</p>
    <p>Cities lose up to thirty percent of their treated water to leaks. Brightwater helps utilities find those leaks within days instead of months, saving water, energy and money for the people they serve.</p>
    <p>The platform ranks every alert by urgency, so repair crews go first where damage would be worst. Engineers see a live map of the whole network on any device.</p>
    <p>Founded in 2019 in Rotterdam, Brightwater now monitors more than four thousand kilometres of pipe for forty utilities across Europe.</p>`;

/** A realistic company home page used by the website-reader and generator tests. */
export const COMPANY_PAGE = `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Brightwater Analytics | Water monitoring for cities</title>
  <meta name="description" content="Brightwater Analytics builds sensors and software that detect leaks in city water networks.">
  <meta property="og:site_name" content="Brightwater">
  <meta property="og:image" content="/img/hero.jpg">
  <link rel="icon" href="/favicon.ico">
</head><body>
  <header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact us today</a>
    <img class="site-logo" src="/img/brightwater-logo.png" alt="Brightwater"></nav></header>
  <main><article>
${BRIGHTWATER_ARTICLE}
    <img src="/img/sensor.jpg" alt="A sensor"><img src="data:image/png;base64,AAAA"><img src="javascript:alert(1)">
  </article></main>
  <footer><p>Copyright 2024 Brightwater Analytics B.V. All rights reserved.</p></footer>
  <script>var tracking = "this is not content and must never be read as text";</script>
</body></html>`;
