// The console's look: react-admin's default theme with darker secondary text and status colours
// (WCAG AA contrast, e.g. the "trialing" and "open" chips in info blue),
// and tables that scroll inside their card on a narrow screen instead of widening the page.
import { defaultTheme, type RaThemeOptions } from "react-admin";

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: "#0b5cad" },
    secondary: { main: "#173b63" },
    error: { main: "#b3261e" },
    success: { main: "#1b6e20" },
    warning: { main: "#8a4b00" },
    info: { main: "#0b5b8a" },
    text: { primary: "rgba(0,0,0,0.87)", secondary: "rgba(0,0,0,0.68)" },
  },
  components: {
    ...defaultTheme.components,
    // react-admin lays the page out at least as wide as its content (min-width: fit-content): keep it to the screen
    RaLayout: {
      styleOverrides: {
        root: {
          minWidth: 0,
          "& .RaLayout-appFrame": { minWidth: 0 },
          "& .RaLayout-contentWithSidebar": { minWidth: 0 },
          "& .RaLayout-content": { minWidth: 0 },
        },
      },
    },
    RaList: { styleOverrides: { root: { "& .RaList-main": { minWidth: 0 }, "& .RaList-content": { overflowX: "auto" } } } },
    RaDatagrid: { styleOverrides: { root: { "& .RaDatagrid-tableWrapper": { overflowX: "auto" } } } },
    // the empty list's text is greyed with opacity by default, too faint to read (axe color-contrast)
    RaEmpty: {
      styleOverrides: { root: { "& .RaEmpty-message": { opacity: 1, color: "rgba(0,0,0,0.68)" }, "& .RaEmpty-icon": { opacity: 0.5 } } },
    },
    RaTopToolbar: { styleOverrides: { root: { flexWrap: "wrap" } } },
    RaFilterForm: { styleOverrides: { root: { flexWrap: "wrap", minWidth: 0 } } },
    RaShow: { styleOverrides: { root: { "& .RaShow-main": { minWidth: 0 }, "& .RaShow-card": { overflowX: "auto" } } } },
  },
};
