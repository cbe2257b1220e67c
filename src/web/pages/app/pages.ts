// The signed-in app's pages come from the one list of the web app's paths, which the server
// reads too (src/shared/web-routes.ts); the router and the shell's navigation import it here.
export { APP_PAGES, type AppPage } from '../../../shared/web-routes.ts';
