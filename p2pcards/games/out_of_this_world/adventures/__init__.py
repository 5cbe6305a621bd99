"""Adventure data files (``*.json``); a package only so that installs ship them."""
