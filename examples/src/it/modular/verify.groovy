// The program ran and moved every entity once: x = i + 1 for the three entities.
def log = new File(basedir, 'build.log').text
['Position[x=1.0, y=0.0]', 'Position[x=2.0, y=0.0]', 'Position[x=3.0, y=0.0]'].each {
    assert log.contains(it) : "build.log lacks ${it}"
}
