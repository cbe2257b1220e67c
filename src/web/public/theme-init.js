// Applies the stored theme before the first paint (SPEC section 4: key 'theme', values light, dark, system).
try {
  var stored = localStorage.getItem('theme');
  var mode = stored === 'light' || stored === 'dark' || stored === 'system' ? stored : null;
  var dark = mode === 'dark' || ((mode === null || mode === 'system') && window.matchMedia('(prefers-color-scheme: dark)').matches);
  if (dark) document.documentElement.classList.add('dark');
} catch (e) {}
