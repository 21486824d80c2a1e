"""`a320-bench report PATH...`: one self-contained HTML file to look at a run (offline, no CDN).

Reads what `score` reads, through the score package's functions, and imports
neither mcp, litellm nor the simulator. Modules, one concept each:

    load        paths -> ScoreCards (score_file, detail) + each episode's timeline
    timeline    one trajectory -> what its episode page shows (alerts, calls, procedure, ...)
    paired      exact McNemar, Holm's adjustment, a seeded paired bootstrap
    comparison  models compared scenario by scenario on compliant success
    charts      Plotly figure specs of the overview (drawn by the inlined plotly.js)
    document    everything the page needs: the tables' rows and the data embedded once as JSON
    writer      Jinja2 renders templates/ with plotly.js, the CSS, the script and the data inlined
    cli         `run_report(args)`, called by `a320-bench report`
"""
