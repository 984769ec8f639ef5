// The console's look: react-admin's default theme with darker secondary text (WCAG AA contrast).
import { defaultTheme, type RaThemeOptions } from "react-admin";

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: "#0b5cad" }, secondary: { main: "#173b63" }, text: { primary: "rgba(0,0,0,0.87)", secondary: "rgba(0,0,0,0.68)" } },
};
